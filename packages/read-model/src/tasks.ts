import type { ListTasksQuery, TaskRow } from '@vt/contracts';
import { Prisma, type SqlReader } from '@vt/db';
import { beyondCursor, cursorPage, pageOrder, type SortColumn } from './keyset.ts';
import { emptyList, inProperties, isoInstant, type ListResult } from './list-result.ts';
import type { Page } from './read-scope.ts';

interface TaskRecord {
  id: string;
  title: string;
  description: string;
  status: TaskRow['status'];
  priority: TaskRow['priority'];
  due_date: string | null;
  property_id: string;
  plan_id: string | null;
  created_at: Date;
  updated_at: Date;
  assignee_id: string | null;
  assignee_name: string | null;
  labels: TaskRow['labels'];
}

/** Newest created first, ties by id. */
const TASK_ORDER: SortColumn[] = [
  { column: 'created_at', descending: true, type: 'timestamptz' },
  { column: 'id', type: 'uuid' },
];

/** Accepted tasks only: a proposed or declined plan step is never served. Newest created first, ties by id. */
export async function listTasks(
  sql: SqlReader,
  propertyIds: readonly string[],
  query: ListTasksQuery,
  page: Page,
): Promise<ListResult<TaskRow>> {
  if (propertyIds.length === 0) return emptyList();
  const filters = [Prisma.sql`t.review_state = 'accepted'`, inProperties('t.property_id', propertyIds)];
  if (query.status !== undefined) filters.push(Prisma.sql`t.status = ${query.status}::task_status`);
  const where = Prisma.join(filters, ' AND ');

  const total = Prisma.sql`SELECT count(*)::int FROM tasks t WHERE ${where}`;
  // The page and its total in one statement (the total an init plan), as for /v1/responses.
  const records = await sql.rows<TaskRecord & { total: number }>(Prisma.sql`
    WITH page AS (
      SELECT t.* FROM tasks t WHERE ${where} AND ${beyondCursor(TASK_ORDER, page)}
      ${pageOrder(TASK_ORDER, page)}
    )
    SELECT page.id, page.title, page.description, page.status::text AS status, page.priority::text AS priority,
      to_char(page.due_date, 'YYYY-MM-DD') AS due_date, page.property_id, page.plan_id,
      page.created_at, page.updated_at, u.id AS assignee_id, u.name AS assignee_name,
      COALESCE((
        SELECT json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY l.name, l.id)
        FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = page.id
      ), '[]'::json) AS labels,
      (${total}) AS total
    FROM page LEFT JOIN users u ON u.id = page.assignee_id
    ${pageOrder(TASK_ORDER, { ...page, offset: 0 })}`);
  const { rows, ...cursors } = cursorPage(records, page, (record) => [isoInstant(record.created_at), record.id]);
  // A page past the end has no row to carry the total.
  const counted =
    records[0]?.total ?? (await sql.rows<{ total: number }>(Prisma.sql`SELECT (${total}) AS total`))[0]?.total ?? 0;
  return {
    ...cursors,
    data: rows.map((record) => ({
      id: record.id,
      title: record.title,
      description: record.description,
      status: record.status,
      priority: record.priority,
      labels: record.labels,
      dueDate: record.due_date,
      assignee:
        record.assignee_id !== null && record.assignee_name !== null
          ? { id: record.assignee_id, name: record.assignee_name }
          : null,
      propertyId: record.property_id,
      planId: record.plan_id,
      createdAt: isoInstant(record.created_at),
      updatedAt: isoInstant(record.updated_at),
    })),
    total: counted,
  };
}

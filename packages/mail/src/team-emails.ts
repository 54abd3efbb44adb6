import { Prisma, type PrismaClient } from '@vt/db';
import {
  beyondCursor,
  cursorPage,
  inPageOrder,
  isoInstant,
  type Page,
  pageOrder,
  type SortColumn,
} from '@vt/read-model';

/** One email as the console lists it: never its body. */
export interface TeamEmail {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  /** While pending: when the next attempt is due. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  sentAt: Date | null;
}

const LISTED = {
  id: true,
  kind: true,
  recipient: true,
  subject: true,
  status: true,
  attempts: true,
  lastError: true,
  nextAttemptAt: true,
  createdAt: true,
  sentAt: true,
} as const;

const listed = (row: TeamEmail): TeamEmail => ({
  ...row,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
});

const EMAIL_ORDER: SortColumn[] = [
  { column: 'created_at', descending: true, type: 'timestamptz' },
  { column: 'id', descending: true, type: 'uuid' },
];

/** A page of a team's emails, newest first (an index walk: team, created_at). */
export async function listTeamEmails(db: PrismaClient, teamId: string, page: Page) {
  const read = await db.$queryRaw<{ id: string; created_at: Date }[]>(Prisma.sql`
    SELECT id, created_at FROM outgoing_emails
    WHERE team_id = ${teamId}::uuid AND ${beyondCursor(EMAIL_ORDER, page)}
    ${pageOrder(EMAIL_ORDER, page)}`);
  const { rows, ...cursors } = cursorPage(read, page, (row) => [isoInstant(row.created_at), row.id]);
  const found = await db.outgoingEmail.findMany({ where: { id: { in: rows.map((row) => row.id) } }, select: LISTED });
  return { emails: inPageOrder(rows, found).map(listed), ...cursors };
}

/** One email of the team, or null (another team's is not found either). */
export async function findTeamEmail(db: PrismaClient, teamId: string, id: string): Promise<TeamEmail | null> {
  const row = await db.outgoingEmail.findFirst({ where: { id, teamId }, select: LISTED });
  return row && listed(row);
}

/** The team's test emails queued since `since`, oldest first: the console's limit on them. */
export async function testEmailsSince(db: PrismaClient, teamId: string, since: Date): Promise<Date[]> {
  const rows = await db.outgoingEmail.findMany({
    where: { teamId, kind: 'test', createdAt: { gte: since } },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
  return rows.map((row) => row.createdAt);
}

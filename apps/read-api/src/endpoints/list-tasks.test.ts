import { taskSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import { dayBefore, endpointSuite, expectRowsMatch, NOW, sortBy } from '../testing/index.ts';

// listTasks (READ-27, READ-28) against this file's own endpoint world: the read world's growth
// tasks plus tasks on every other property.

const { world, extraTasks, list, all, expectedTasks } = endpointSuite();

describe('GET /v1/tasks', () => {
  interface TaskBody {
    id: string;
    title: string;
    description: string;
    status: string;
    priority: string | null;
    labels: { id: string; name: string; color: string | null }[];
    dueDate: string | null;
    assignee: { id: string; name: string } | null;
    propertyId: string;
    planId: string | null;
    createdAt: string;
    updatedAt: string;
  }

  it('[READ-27] lists accepted tasks only: proposed and declined plan steps never appear', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    const ids = tasks.data.map((t) => t.id);
    expect(ids).not.toContain(world.tasks.proposed.id);
    expect(ids).not.toContain(world.tasks.declined.id);
    expect(tasks.total).toBe(expectedTasks('all').length);
    // Both hidden steps are in status backlog: filtering on it still never shows them.
    for (const status of ['backlog', 'todo', 'in_progress', 'done', 'canceled']) {
      const filtered = await all<TaskBody>('/v1/tasks', { status });
      expect(filtered.data.map((t) => t.id)).not.toContain(world.tasks.proposed.id);
      expect(filtered.data.map((t) => t.id)).not.toContain(world.tasks.declined.id);
    }
    const growthOnly = await all<TaskBody>('/v1/tasks', { propertyId: world.properties.growth.id });
    expect(growthOnly.data.map((t) => t.id)).toEqual([world.tasks.adHoc.id, world.tasks.step1.id, world.tasks.done.id]);
  });

  it('[READ-27] newest created first', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    expect(tasks.data.map((t) => t.id)).toEqual(expectedTasks('all').map((t) => t.id));
    const created = tasks.data.map((t) => Date.parse(t.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    // Paging keeps the order.
    const paged: string[] = [];
    for (let offset = 0; offset < tasks.total; offset++) {
      paged.push(...(await list<TaskBody>('/v1/tasks', { limit: 1, offset })).data.map((t) => t.id));
    }
    expect(paged).toEqual(tasks.data.map((t) => t.id));
  });

  it('[READ-27] filters by propertyId and by status', async () => {
    for (const prop of ['growth', 'starter'] as const) {
      const propertyId = world.properties[prop].id;
      const filtered = await all<TaskBody>('/v1/tasks', { propertyId });
      expect(filtered.data.map((t) => t.id)).toEqual(
        expectedTasks('all')
          .filter((t) => t.propertyId === propertyId)
          .map((t) => t.id),
      );
    }
    for (const status of ['backlog', 'todo', 'in_progress', 'done', 'canceled']) {
      const filtered = await all<TaskBody>('/v1/tasks', { status });
      const expected = expectedTasks('all').filter((t) => t.status === status);
      expect(filtered.total, status).toBe(expected.length);
      expect(filtered.data.map((t) => t.id)).toEqual(expected.map((t) => t.id));
      expect(filtered.data.every((t) => t.status === status)).toBe(true);
    }
    const both = await all<TaskBody>('/v1/tasks', { propertyId: world.properties.growth.id, status: 'done' });
    expect(both.data.map((t) => t.id)).toEqual([world.tasks.done.id]);
    const none = await all<TaskBody>('/v1/tasks', { propertyId: world.properties.starter.id, status: 'done' });
    expect(none).toMatchObject({ data: [], total: 0 });
  });

  it('[READ-6] [READ-27] a filtered page past the end, or of one row, still has the filtered total', async () => {
    const growth = world.properties.growth.id;
    const filters: Record<string, string>[] = [
      { propertyId: growth },
      { status: 'done' },
      { propertyId: growth, status: 'done' },
    ];
    for (const filter of filters) {
      const expected = expectedTasks('all').filter(
        (t) =>
          (filter.propertyId === undefined || t.propertyId === filter.propertyId) &&
          (filter.status === undefined || t.status === filter.status),
      );
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect((await list<TaskBody>('/v1/tasks', { ...filter, limit: 1 })).total).toBe(expected.length);
      expect(await list<TaskBody>('/v1/tasks', { ...filter, offset: expected.length + 5 })).toMatchObject({
        data: [],
        total: expected.length,
      });
    }
  });

  it('[READ-28] a title-only ad-hoc task: description "", priority null, no labels, no due date, unassigned, planId null', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    const adHoc = tasks.data.find((t) => t.id === world.tasks.adHoc.id)!;
    expect(adHoc).toEqual({
      id: world.tasks.adHoc.id,
      title: 'Title only',
      description: '',
      status: 'todo',
      priority: null,
      labels: [],
      dueDate: null,
      assignee: null,
      propertyId: world.properties.growth.id,
      planId: null,
      createdAt: world.tasks.adHoc.createdAt.toISOString(),
      updatedAt: world.tasks.adHoc.updatedAt.toISOString(),
    });
    const done = tasks.data.find((t) => t.id === world.tasks.done.id)!;
    expect(done).toMatchObject({ description: '', priority: 'low', status: 'done', planId: null, assignee: null });
    const starter = tasks.data.find((t) => t.id === extraTasks.starter.id)!;
    expect(starter).toMatchObject({
      description: 'Starter work.',
      priority: 'urgent',
      status: 'backlog',
      planId: null,
    });
  });

  it('[READ-28] a plan step: labels {id, name, color hex|null}, dueDate yyyy-MM-dd, assignee {id, name}, planId', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    const step = tasks.data.find((t) => t.id === world.tasks.step1.id)!;
    const { seo, content } = world.tasks.labels;
    expect(sortBy(step.labels, (l) => l.name)).toEqual(
      sortBy(
        [
          { id: seo.id, name: seo.name, color: seo.color },
          { id: content.id, name: content.name, color: content.color },
        ],
        (l) => l.name,
      ),
    );
    expect(step.labels.find((l) => l.name === 'content')?.color).toBeNull();
    expect(step.labels.find((l) => l.name === 'seo')?.color).toMatch(/^#[0-9a-fA-F]{6}$/);
    expect(step).toMatchObject({
      title: 'Publish a comparison page',
      description: 'Cover pricing and integrations.',
      status: 'in_progress',
      priority: 'high',
      dueDate: dayBefore(NOW, -7),
      assignee: { id: world.user.id, name: 'Ada Assignee' },
      propertyId: world.properties.growth.id,
      planId: world.tasks.plan.id,
      createdAt: world.tasks.step1.createdAt.toISOString(),
    });
  });

  it('[READ-28] every task has well-formed fields and validates against taskSchema (no extra keys)', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    expectRowsMatch(taskSchema, tasks.data);
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    for (const t of tasks.data) {
      expect(t.createdAt).toMatch(iso);
      expect(t.updatedAt).toMatch(iso);
      expect(Number.isNaN(Date.parse(t.updatedAt))).toBe(false);
      expect(t.dueDate === null || /^\d{4}-\d{2}-\d{2}$/.test(t.dueDate)).toBe(true);
      expect(t.priority === null || ['urgent', 'high', 'medium', 'low'].includes(t.priority)).toBe(true);
      expect(['backlog', 'todo', 'in_progress', 'done', 'canceled']).toContain(t.status);
      for (const l of t.labels) expect(l.color === null || /^#[0-9a-fA-F]{6}$/.test(l.color)).toBe(true);
      expect(t.assignee === null || Object.keys(t.assignee).sort().join() === 'id,name').toBe(true);
    }
  });
});

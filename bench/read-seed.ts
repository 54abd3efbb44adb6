import { generateApiKey } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';

// The read benchmark's data, written with set-based SQL so 100,000 answers take seconds.

export interface ReadBenchShape {
  runId: string;
  properties: number;
  prompts: number;
  models: string[];
  days: number;
  keys: number;
}

export async function seedReadBench(
  db: PrismaClient,
  { runId, properties: PROPERTIES, prompts: PROMPTS, models: MODELS, days: DAYS, keys: KEYS }: ReadBenchShape,
) {
  const t0 = performance.now();
  const team = await db.team.create({ data: { name: 'Bench', slug: `bench-${runId}` } });
  const user = await db.user.create({ data: { email: `bench-${runId}@example.com`, name: 'Bench User' } });
  await db.$executeRaw`
    INSERT INTO properties (id, team_id, name, domain, brand_terms, plan, updated_at)
    SELECT gen_random_uuid(), ${team.id}::uuid, 'Brand ' || i, 'brand' || i || '.example.com',
      ARRAY['Brand ' || i], (ARRAY['starter', 'growth', 'scale'])[1 + i % 3]::plan, now()
    FROM generate_series(1, ${PROPERTIES}) AS i`;
  await db.$executeRaw`
    INSERT INTO prompts (id, property_id, text, tags)
    SELECT gen_random_uuid(), p.id, 'Which tool is best for job ' || j || '?', ARRAY['bench']
    FROM properties p, generate_series(1, ${PROMPTS}) AS j`;
  await db.$executeRaw`
    INSERT INTO competitors (id, property_id, name, terms)
    SELECT gen_random_uuid(), p.id, 'Rival ' || k, ARRAY['Rival ' || k]
    FROM properties p, generate_series(1, 3) AS k`;
  // One answer per (prompt, model, day); about 40 % mention the brand.
  await db.$executeRaw`
    INSERT INTO responses (id, property_id, prompt_id, model, day, mentioned, matched_term, position, sentiment, excerpt, text)
    SELECT gen_random_uuid(), pr.property_id, pr.id, m.model, current_date - d,
      hit, CASE WHEN hit THEN 'Brand' END, CASE WHEN hit THEN 20 + (d * 7) % 400 END,
      CASE WHEN hit THEN ((d * 13) % 200 - 100) / 100.0 END,
      left(repeat('An answer that weighs the options for this job, cites sources and compares vendors. ', 4), 280),
      repeat('## Answer\n\nA longer markdown answer with **details**, lists and links. ', 30)
    FROM prompts pr
    CROSS JOIN unnest(${MODELS}::text[]) AS m(model)
    CROSS JOIN generate_series(0, ${DAYS - 1}) AS d
    CROSS JOIN LATERAL (SELECT abs(hashtext(pr.id::text || m.model || d) % 10) < 4 AS hit) AS h`;
  await db.$executeRaw`
    INSERT INTO response_sources (response_id, ordinal, url, domain, property_id, day, model)
    SELECT r.id, o, 'https://source' || (abs(hashtext(r.id::text)) % 50) || '.example.org/page/' || (abs(hashtext(r.id::text || o)) % 500),
      'source' || (abs(hashtext(r.id::text)) % 50) || '.example.org', r.property_id, r.day, r.model
    FROM responses r CROSS JOIN generate_series(0, 1) AS o`;
  await db.$executeRaw`
    INSERT INTO response_competitor_mentions (response_id, competitor_id, position, property_id, day, model)
    SELECT r.id, c.id, 100, r.property_id, r.day, r.model
    FROM responses r JOIN competitors c ON c.property_id = r.property_id
    WHERE abs(hashtext(r.id::text || c.id::text)) % 4 = 0`;
  await db.$executeRaw`
    INSERT INTO labels (id, team_id, name, color)
    SELECT gen_random_uuid(), ${team.id}::uuid, 'label ' || i, '#2f80ed' FROM generate_series(1, 5) AS i`;
  await db.$executeRaw`
    INSERT INTO tasks (id, property_id, title, description, status, priority, review_state, assignee_id, created_at, updated_at)
    SELECT gen_random_uuid(), p.id, 'Task ' || t, 'Do the thing ' || t,
      (ARRAY['backlog', 'todo', 'in_progress', 'done', 'canceled'])[1 + t % 5]::task_status,
      (ARRAY['urgent', 'high', 'medium', 'low'])[1 + t % 4]::task_priority,
      (ARRAY['accepted', 'accepted', 'accepted', 'declined'])[1 + t % 4]::task_review_state,
      CASE WHEN t % 2 = 0 THEN ${user.id}::uuid END, now() - t * interval '1 hour', now()
    FROM properties p, generate_series(1, 100) AS t`;
  await db.$executeRaw`
    INSERT INTO task_labels (task_id, label_id)
    SELECT t.id, l.id FROM tasks t JOIN labels l ON abs(hashtext(t.id::text || l.id::text)) % 3 = 0`;
  const keys = Array.from({ length: KEYS }, () => generateApiKey());
  await db.apiKey.createMany({
    data: keys.map((key, i) => ({ teamId: team.id, name: `bench ${i}`, keyHash: key.hash, prefix: key.prefix })),
  });
  // What autovacuum does to a live table (visibility map, statistics), done now for a bulk load.
  await db.$executeRawUnsafe('VACUUM ANALYZE');
  const responses = await db.response.count();
  return { keys: keys.map((k) => k.key), responses, seconds: (performance.now() - t0) / 1000 };
}

import { answerCollectorConfigSchema } from '@vt/config';
import { generateApiKey } from '@vt/credentials';
import { formatUtcDay, utcDay } from '@vt/db';
import { createLogger } from '@vt/logger';
import { createReadApiHarness } from '@vt/read-api/testing';
import { isolatedQueuePrefix, scratchDatabase, testEnv, uniqueSlug } from '@vt/test-support';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejudgeProperty } from './jobs/rejudge-property.ts';
import { startAnswerCollector } from './start.ts';
import { recordingClient } from './testing/recording-client.ts';
import { waitFor } from './testing/wait-for.ts';

// Issue 32 item 3, where the buyers are: each question is asked with its prompt's country and
// language, else its property's, passed in ask() and stored on the answer row; none set, none
// passed. On the real Postgres and Redis, with a client that records the options it was given.

const today = formatUtcDay(utcDay(new Date()));
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let collector: Awaited<ReturnType<typeof startAnswerCollector>>;
const client = recordingClient('chatgpt');

beforeAll(async () => {
  scratch = await scratchDatabase('answer_location');
  const config = answerCollectorConfigSchema.parse({
    ...testEnv,
    DATABASE_URL: scratch.url,
    QUEUE_PREFIX: isolatedQueuePrefix(),
    ANSWER_COLLECTOR_METRICS_PORT: '0',
    HOST: '127.0.0.1',
  });
  collector = await startAnswerCollector(config, createLogger({ name: 'answer-collector', level: 'silent' }), {
    clients: [client],
  });
}, 30_000);

afterAll(async () => {
  await collector?.close();
  await scratch?.drop();
});

describe('where the buyers are', () => {
  it('asks with the prompt’s country and language, else the property’s, and stores them with the answer', async () => {
    const db = scratch.db;
    const slug = uniqueSlug('where');
    const team = await db.team.create({ data: { name: slug, slug } });
    const property = await db.property.create({
      data: { teamId: team.id, name: 'Acme', domain: 'acme.io', plan: 'growth', country: 'DE', language: 'de' },
    });
    const inherits = await db.prompt.create({ data: { propertyId: property.id, text: `beste Analyse ${slug}?` } });
    const own = await db.prompt.create({
      data: { propertyId: property.id, text: `best analytics ${slug}?`, country: 'GB', language: 'en-GB' },
    });
    const languageOnly = await db.prompt.create({
      data: { propertyId: property.id, text: `meilleur ${slug}?`, language: 'fr' },
    });
    const nowhere = await db.property.create({
      data: { teamId: team.id, name: 'Other', domain: 'other.io', plan: 'growth' },
    });
    const plain = await db.prompt.create({ data: { propertyId: nowhere.id, text: `anywhere ${slug}?` } });

    await collector.collectDay(today);
    const rows = await waitFor(
      () => db.response.findMany({ where: { propertyId: { in: [property.id, nowhere.id] } } }),
      (r) => r.length === 4,
    );
    const stored = Object.fromEntries(rows.map((r) => [r.promptId, [r.country, r.language]]));
    expect(stored).toEqual({
      [inherits.id]: ['DE', 'de'],
      [own.id]: ['GB', 'en-GB'],
      [languageOnly.id]: ['DE', 'fr'],
      [plain.id]: [null, null],
    });
    const passed = (text: string) => client.asked.find((a) => a.prompt === text)?.options;
    expect(passed(inherits.text)).toEqual({ location: { country: 'DE', language: 'de' } });
    expect(passed(own.text)).toEqual({ location: { country: 'GB', language: 'en-GB' } });
    expect(passed(languageOnly.text)).toEqual({ location: { country: 'DE', language: 'fr' } });
    expect(passed(plain.text)?.location).toBeUndefined();

    // /v1 says where each answer was asked (an additive field: Versioning 2).
    const issued = generateApiKey();
    await db.apiKey.create({ data: { teamId: team.id, name: 'k', keyHash: issued.hash, prefix: issued.prefix } });
    const readApi = createReadApiHarness({ db });
    try {
      const v1 = (path: string) => request(readApi.app).get(path).set('Authorization', `Bearer ${issued.key}`);
      const list = await v1(`/v1/responses?propertyId=${property.id}`);
      const listed = Object.fromEntries(
        list.body.data.map((r: { promptId: string; country: string; language: string }) => [
          r.promptId,
          [r.country, r.language],
        ]),
      );
      expect(listed).toEqual({
        [inherits.id]: ['DE', 'de'],
        [own.id]: ['GB', 'en-GB'],
        [languageOnly.id]: ['DE', 'fr'],
      });
      const row = rows.find((r) => r.promptId === plain.id);
      const detail = await v1(`/v1/responses/${row?.id}`);
      expect(detail.body.data).toMatchObject({ country: null, language: null });
    } finally {
      await readApi.close();
    }

    // Judged again, not asked again: the location it was asked with stays.
    await db.property.update({ where: { id: property.id }, data: { country: 'AT', brandTerms: ['Acme'] } });
    await rejudgeProperty(db, property.id);
    const after = await db.response.findFirst({ where: { promptId: inherits.id } });
    expect([after?.country, after?.language]).toEqual(['DE', 'de']);
  }, 30_000);
});

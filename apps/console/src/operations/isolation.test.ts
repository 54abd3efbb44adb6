import { importAnswers } from '@vt/answers';
import { consoleEndpoints } from '@vt/contracts/console';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createConsoleHarness, type SignedUp } from '../testing/index.ts';

// Isolation across every console route of the catalogue that takes an id (a new route is covered
// as it is added): the owner of team A, given team B's ids in the path (B's property, key, member,
// prompt, competitor; or A's property with B's prompt or competitor), reaches nothing of team B
// and changes nothing of it; a signed-out session reaches nothing at all.

// Every catalogued route mounted, the per-property webhook secret rotation (WEBHOOK_SECRET_ROTATION=property) too.
const h = createConsoleHarness({ connection: { webhookSecretRotation: 'property' } });
afterAll(() => h.close());

interface TeamWorld {
  owner: SignedUp;
  member: SignedUp;
  teamId: string;
  propertyId: string;
  promptId: string;
  competitorId: string;
  keyId: string;
  responseId: string;
  webhookId: string;
}

async function teamWorld(label: string): Promise<TeamWorld> {
  const owner = await h.signUp(`${label}-owner`);
  const member = await h.signUp(`${label}-member`);
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = h.as(owner.token, teamId);
  const property = await as.post('/api/properties', {
    name: `${label} shop`,
    domain: `${label}-shop.example`,
    plan: 'growth',
  });
  const propertyId: string = property.body.property.id;
  const prompt = await as.post(`/api/properties/${propertyId}/prompts`, { text: `${label} secret question` });
  const competitor = await as.post(`/api/properties/${propertyId}/competitors`, { name: `${label} rival` });
  const key = await as.post('/api/keys', { name: `${label} key` });
  for (const res of [property, prompt, competitor, key]) expect(res.status, JSON.stringify(res.body)).toBe(201);
  // One collected answer, for the routes that read one.
  const answer = JSON.stringify({
    propertyId,
    prompt: `${label} secret question`,
    model: 'chatgpt',
    date: new Date().toISOString().slice(0, 10),
    answer: `${label} rival is the answer.`,
  });
  expect((await importAnswers(h.db, [answer])).rejected).toEqual([]);
  const response = await h.db.response.findFirstOrThrow({ where: { propertyId } });
  // An alert webhook, stored as it is (its URL's host would be resolved through the API).
  const webhook = await h.db.webhookDestination.create({
    data: { propertyId, format: 'standard', url: `https://${label}.example.test/hook` },
  });
  return {
    owner,
    member,
    teamId,
    propertyId,
    promptId: prompt.body.prompt.id,
    competitorId: competitor.body.competitor.id,
    keyId: key.body.key.id,
    responseId: response.id,
    webhookId: webhook.id,
  };
}

let a: TeamWorld;
let b: TeamWorld;
beforeAll(async () => {
  [a, b] = await Promise.all([teamWorld('iso-a'), teamWorld('iso-b')]);
});

/** What team B's rows look like, to see that nothing of it changed. */
async function stateOf(world: TeamWorld) {
  const { db } = h;
  return {
    property: await db.property.findUnique({ where: { id: world.propertyId } }),
    prompt: await db.prompt.findUnique({ where: { id: world.promptId } }),
    competitor: await db.competitor.findUnique({ where: { id: world.competitorId } }),
    key: await db.apiKey.findUnique({ where: { id: world.keyId } }),
    webhook: await db.webhookDestination.findUnique({ where: { id: world.webhookId } }),
    webhookDeliveries: await db.webhookDelivery.count({ where: { destinationId: world.webhookId } }),
    members: await db.membership.findMany({ where: { teamId: world.teamId }, orderBy: { userId: 'asc' } }),
    alertRules: await db.alertRule.findMany({ where: { propertyId: world.propertyId }, orderBy: { kind: 'asc' } }),
    reportSubscriptions: await db.reportSubscription.count({ where: { propertyId: world.propertyId } }),
  };
}

// A body that passes validation, so the id is what decides the answer.
const BODIES: Record<string, object> = {
  updateProperty: { name: 'Hijacked' },
  addCompetitor: { name: 'Hijacked rival' },
  addPrompt: { text: 'Hijacked question' },
  updatePrompt: { active: false },
  createAlertWebhook: { format: 'slack', url: 'https://hijack.example.test/hook' },
  updateAlertWebhook: { url: 'https://hijack.example.test/hook', enabled: false },
  updateAlertRules: { rules: [{ kind: 'crawl_rejecting', enabled: true }] },
  rotateWebhookSecret: { overlapHours: 0 },
};

const withIds = Object.values(consoleEndpoints).filter((e) => e.path.includes('{'));

describe('isolation between teams, on every console route that takes an id', () => {
  it("team A's owner given team B's ids reaches nothing of team B and changes nothing", async () => {
    const before = await stateOf(b);
    const marks = [
      b.propertyId,
      b.promptId,
      b.competitorId,
      b.keyId,
      b.responseId,
      b.webhookId,
      b.member.user.id,
      'iso-b',
      b.member.email,
    ];
    const paths = (path: string) => {
      const own = (param: string) =>
        ({
          id: path.startsWith('/api/keys') ? b.keyId : b.propertyId,
          userId: b.member.user.id,
          promptId: b.promptId,
          competitorId: b.competitorId,
          responseId: b.responseId,
          webhookId: b.webhookId,
        })[param] ?? b.propertyId;
      const foreign = path.replace(/\{(\w+)\}/g, (_, p: string) => own(p));
      // A's own property with B's prompt or competitor: the nested id must belong to the property.
      const nested = path.includes('/api/properties/{id}/')
        ? path.replace('{id}', a.propertyId).replace(/\{(\w+)\}/g, (_, p: string) => own(p))
        : undefined;
      return nested && nested !== path.replace('{id}', a.propertyId) ? [foreign, nested] : [foreign];
    };
    let tried = 0;
    for (const endpoint of withIds) {
      for (const path of paths(endpoint.path)) {
        const res = await h.as(a.owner.token, a.teamId)[endpoint.method](path).send(BODIES[endpoint.operationId]);
        expect([403, 404], `${endpoint.operationId} ${path}: ${res.status} ${res.text}`).toContain(res.status);
        for (const mark of marks) expect(res.text, `${endpoint.operationId} ${path}`).not.toContain(mark);
        tried++;
      }
    }
    expect(tried).toBeGreaterThanOrEqual(withIds.length);
    expect(await stateOf(b)).toEqual(before);
  });

  it("choosing team B with X-Team-Id, as someone not in it, reaches none of team B's routes", async () => {
    const memberRoutes = Object.values(consoleEndpoints).filter((e) => e.access === 'member' || e.access === 'admin');
    for (const endpoint of memberRoutes) {
      const path = endpoint.path.replace(/\{(\w+)\}/g, () => b.propertyId);
      const res = await h.as(a.owner.token, b.teamId)[endpoint.method](path).send(BODIES[endpoint.operationId]);
      expect(res.status, `${endpoint.operationId}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toContain(b.propertyId);
      expect(res.text).not.toContain('iso-b');
    }
  });

  it('a signed-out session reaches nothing: 401 on every route but signing up and in', async () => {
    const person = await h.signUp('iso-gone');
    const out = await h.as(person.token).post('/api/auth/sign-out');
    expect(out.status).toBe(204);
    for (const endpoint of Object.values(consoleEndpoints)) {
      if (endpoint.access === 'public') continue;
      const path = endpoint.path.replace(/\{(\w+)\}/g, () => a.propertyId);
      const viaHeader = await h.as(person.token, a.teamId)[endpoint.method](path).send(BODIES[endpoint.operationId]);
      expect(viaHeader.status, `${endpoint.operationId}`).toBe(401);
      expect(viaHeader.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
      // From the console's own origin, so the CSRF check passes and the session is what decides.
      const viaCookie = await request(h.app)
        [endpoint.method](path)
        .set('Cookie', person.cookie)
        .set('Origin', CONSOLE_ORIGIN);
      expect(viaCookie.status, `${endpoint.operationId} (cookie)`).toBe(401);
    }
  });
});

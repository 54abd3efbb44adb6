import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../testing/index.ts';

// Names, terms and prompts are trimmed by the console's schemas: one of only spaces (or tabs,
// or a newline) is refused as blank with the documented 400 envelope naming the field, never
// stored and never a 500; a name with spaces around it is kept without them.

const h = createConsoleHarness();
afterAll(() => h.close());

const BLANKS = ['', '   ', '\t \n'];
const blank = (path: string) => ({
  error: { code: 'INVALID_BODY', message: expect.any(String), details: [{ path, message: 'must not be blank' }] },
});

async function ownerWithProperty() {
  const owner = await h.signUp('blank');
  const { teamId } = await h.teamOf(owner);
  const as = h.as(owner.token, teamId);
  const created = await as.post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  return { owner, teamId, as, base: `/api/properties/${created.body.property.id}` };
}

describe('blank names', () => {
  it('refuses a blank person, team, property, competitor, key name and prompt with a 400 naming the field', async () => {
    const { owner, teamId, as, base } = await ownerWithProperty();
    for (const value of BLANKS) {
      const cases: [Promise<{ status: number; body: unknown }>, string][] = [
        [h.as(owner.token).post('/api/teams', { name: value, slug: `blank-${Date.now()}` }), 'name'],
        [as.patch('/api/team', { name: value }), 'name'],
        [as.post('/api/properties', { name: value, domain: 'blank.example' }), 'name'],
        [as.patch(base, { name: value }), 'name'],
        [as.post(`${base}/competitors`, { name: value }), 'name'],
        [as.post(`${base}/prompts`, { text: value }), 'text'],
        [as.post('/api/keys', { name: value }), 'name'],
        [as.patch(base, { brandTerms: ['Shop', value] }), 'brandTerms.1'],
      ];
      for (const [call, path] of cases) {
        const res = await call;
        expect(res.status, `${path} ${JSON.stringify(value)}`).toBe(400);
        expect(res.body).toEqual(blank(path));
      }
    }
    const signUp = await h.as('').post('/api/auth/sign-up', {
      email: `blank-${Date.now()}@example.test`,
      password: 'correct horse battery',
      name: '  ',
    });
    expect(signUp.status).toBe(400);
    expect(signUp.body).toEqual(blank('name'));

    // Nothing blank was stored.
    const team = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    expect(team.name.trim()).not.toBe('');
    expect(await h.db.property.count({ where: { teamId } })).toBe(1);
    expect(await h.db.competitor.count({ where: { property: { teamId } } })).toBe(0);
    expect(await h.db.prompt.count({ where: { property: { teamId } } })).toBe(0);
  });

  it('keeps a name typed with spaces around it without them', async () => {
    const { as, base } = await ownerWithProperty();
    const competitor = await as.post(`${base}/competitors`, { name: '  Rival Inc  ' });
    expect(competitor.status).toBe(201);
    expect(competitor.body.competitor.name).toBe('Rival Inc');
    const prompt = await as.post(`${base}/prompts`, { text: '\tbest shop?\n' });
    expect(prompt.status).toBe(201);
    expect(prompt.body.prompt.text).toBe('best shop?');
  });
});

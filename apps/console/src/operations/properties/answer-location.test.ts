import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// Issue 32 item 3 in the console: a property's country and language (where its buyers are),
// overridable per prompt, set by owners and admins, validated (ISO 3166-1 alpha-2, BCP 47) and
// stored canonical; a refused value changes nothing.

const h = createConsoleHarness();
afterAll(() => h.close());

async function teamWithProperty() {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  const id = created.body.property.id as string;
  return { owner, member, as, id, base: `/api/properties/${id}` };
}

describe('where the buyers are, in the console', () => {
  it('a new property has none; owners set a country and language, stored canonical, and clear them with null', async () => {
    const t = await teamWithProperty();
    expect((await t.as(t.owner).get(t.base)).body.property).toMatchObject({ country: null, language: null });
    const set = await t.as(t.owner).patch(t.base, { country: 'de', language: 'de-at' });
    expect(set.status).toBe(200);
    expect(set.body.property).toMatchObject({ country: 'DE', language: 'de-AT' });
    expect(await h.db.property.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      country: 'DE',
      language: 'de-AT',
    });
    // Absent keeps a field; null clears it.
    const cleared = await t.as(t.owner).patch(t.base, { language: null });
    expect(cleared.body.property).toMatchObject({ country: 'DE', language: null });
  });

  it('refuses a country that is not assigned or a language that is not one (400 INVALID_BODY), changing nothing', async () => {
    const t = await teamWithProperty();
    await t.as(t.owner).patch(t.base, { country: 'FR', language: 'fr' });
    for (const body of [{ country: 'UK' }, { country: 'France' }, { language: 'zz' }, { language: 'en_US' }]) {
      const res = await t.as(t.owner).patch(t.base, { ...body, name: 'Renamed' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_BODY');
      expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(/); // no stack trace
    }
    expect(await h.db.property.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      name: 'Shop',
      country: 'FR',
      language: 'fr',
    });
  });

  it('members may not change it (403)', async () => {
    const t = await teamWithProperty();
    const res = await t.as(t.member).patch(t.base, { country: 'US' });
    expect(res.status).toBe(403);
    expect((await h.db.property.findUniqueOrThrow({ where: { id: t.id } })).country).toBeNull();
  });

  it('a prompt may set its own country or language, and clear it to follow the property again', async () => {
    const t = await teamWithProperty();
    await t.as(t.owner).patch(t.base, { country: 'DE', language: 'de' });
    const added = await t.as(t.owner).post(`${t.base}/prompts`, { text: 'best crm in austria', country: 'at' });
    expect(added.status).toBe(201);
    expect(added.body.prompt).toMatchObject({ country: 'AT', language: null });
    const promptId = added.body.prompt.id as string;
    const bad = await t.as(t.owner).patch(`${t.base}/prompts/${promptId}`, { language: 'klingon!' });
    expect(bad.status).toBe(400);
    const changed = await t.as(t.owner).patch(`${t.base}/prompts/${promptId}`, { country: null, language: 'en-gb' });
    expect(changed.body.prompt).toMatchObject({ country: null, language: 'en-GB' });
    const detail = await t.as(t.member).get(t.base);
    expect(detail.body.property.prompts[0]).toMatchObject({ id: promptId, country: null, language: 'en-GB' });
    expect((await t.as(t.member).patch(`${t.base}/prompts/${promptId}`, { country: 'US' })).status).toBe(403);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../../testing/index.ts';

// Changing what a property's answers are judged against (its brand terms, its competitors) queues
// a re-judging of its stored answers, for the answer collector to run; other changes do not.

const h = createConsoleHarness();
afterAll(() => h.close());

const rejudgesOf = async (propertyId: string) =>
  (await h.rejudgeQueue.getJobs(['waiting', 'delayed', 'active'])).filter((j) => j.data.propertyId === propertyId)
    .length;

describe('re-judging on a change of terms', () => {
  it('queues one job per change of brand terms or competitors, and none for a rename or a plan change', async () => {
    const owner = await h.signUp('rejudge');
    const { teamId } = await h.teamOf(owner);
    const api = h.as(owner.token, teamId);
    const id = (await api.post('/api/properties', { name: 'Acme', domain: 'acme.io', plan: 'growth' })).body.property
      .id;
    expect(await rejudgesOf(id)).toBe(0);

    await api.patch(`/api/properties/${id}`, { name: 'Acme Inc', plan: 'scale' });
    expect(await rejudgesOf(id)).toBe(0);
    await api.patch(`/api/properties/${id}`, { brandTerms: ['Acme', 'Acme Inc'] });
    expect(await rejudgesOf(id)).toBe(1);
    const competitor = (await api.post(`/api/properties/${id}/competitors`, { name: 'Globex' })).body.competitor;
    expect(await rejudgesOf(id)).toBe(2);
    await api.delete(`/api/properties/${id}/competitors/${competitor.id}`);
    expect(await rejudgesOf(id)).toBe(3);
    // A refused change queues nothing.
    await api.post(`/api/properties/${id}/competitors`, { name: '' });
    expect(await rejudgesOf(id)).toBe(3);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ClaimSteps, propertyJobClaim, unclaimedReason } from './property-job-claim.ts';
import { runDatabase as testDb, uniqueName } from './testing/run-database.ts';

// The claim on its own, as the crawl-batch and lead statements open with it.

async function runClaim(propertyId: string, key: string, queue: string) {
  const claim = propertyJobClaim(propertyId, { key, queue });
  const [steps] = await testDb().$queryRaw<ClaimSteps[]>`WITH ${claim.ctes} SELECT ${claim.outcome}`;
  return { reason: unclaimedReason(steps), claimed: steps?.claimed };
}

async function aProperty() {
  const db = testDb();
  const slug = uniqueName('claim');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({ data: { teamId: team.id, name: slug, domain: `${slug}.example` } });
}

describe('propertyJobClaim', () => {
  it('claims a job once: the first run applies, every repeat is a duplicate', async () => {
    const property = await aProperty();
    const queue = uniqueName('queue');
    const key = `${queue}:job-1`;
    expect(await runClaim(property.id, key, queue)).toEqual({ reason: null, claimed: true });
    expect(await runClaim(property.id, key, queue)).toEqual({ reason: 'duplicate', claimed: false });
    expect(await testDb().processedJob.count({ where: { jobKey: key, queue } })).toBe(1);
  });

  it('claims nothing for a property that is gone, and leaves no marker', async () => {
    const queue = uniqueName('queue');
    const key = `${queue}:job-1`;
    expect(await runClaim(randomUUID(), key, queue)).toEqual({ reason: 'property_gone', claimed: false });
    expect(await testDb().processedJob.count({ where: { jobKey: key } })).toBe(0);
  });

  it('claims concurrent twins once', async () => {
    const property = await aProperty();
    const queue = uniqueName('queue');
    const key = `${queue}:job-1`;
    const outcomes = await Promise.all([1, 2, 3].map(() => runClaim(property.id, key, queue)));
    expect(outcomes.map((o) => o.reason).sort()).toEqual(['duplicate', 'duplicate', null]);
  });
});

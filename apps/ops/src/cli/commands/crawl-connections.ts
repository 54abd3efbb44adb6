import { CRAWL_CONNECTION_STATUSES, countByStatus, crawlConnections } from '@vt/properties';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { parseOptions } from '../inputs.ts';

const connectionsInput = z.object({ status: z.enum(CRAWL_CONNECTION_STATUSES).optional() });

/**
 * `crawl connections [--status S]`: every property's crawl connection status, as the console shows
 * it one property at a time, and how many are in each. The alert on vt_crawl_connections counts
 * properties "Nothing arriving"; `--status nothing_arriving` names them.
 */
export async function crawlConnectionList(ctx: OpsContext, options: unknown) {
  const { status } = parseOptions(connectionsInput, options);
  const connections = await crawlConnections(ctx.db);
  const shown = status ? connections.filter((c) => c.status === status) : connections;
  const properties = await ctx.db.property.findMany({
    where: { id: { in: shown.map((c) => c.propertyId) } },
    select: { id: true, name: true, domain: true, plan: true, team: { select: { slug: true } } },
  });
  const byId = new Map(properties.map((p) => [p.id, p]));
  return {
    counts: countByStatus(connections),
    properties: shown
      .flatMap(({ propertyId, status, lastCountedAttemptAt }) => {
        const property = byId.get(propertyId);
        if (!property) return []; // deleted between the two reads
        const { name, domain, plan, team } = property;
        return [
          {
            propertyId,
            team: team.slug,
            name,
            domain,
            plan,
            status,
            lastCountedAttemptAt: lastCountedAttemptAt?.toISOString() ?? null,
          },
        ];
      })
      .sort(
        (a, b) =>
          a.team.localeCompare(b.team) || a.name.localeCompare(b.name) || a.propertyId.localeCompare(b.propertyId),
      ),
  };
}

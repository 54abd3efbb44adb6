import { aiPlatformName } from '@vt/attribution';
import { Prisma } from '@vt/db';
import type { ExportSourceFactory } from '../export-source.ts';
import { dayAfter, yesNo } from '../export-source.ts';

interface LeadRow {
  id: string;
  receivedAt: Date;
  eventId: string;
  contact: string;
  email: string | null;
  sessionId: string | null;
  landingPath: string | null;
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  matched: boolean;
  platform: string | null;
}

/**
 * Every lead received in the range, oldest first, with every field the lead webhook stores
 * (personal data: contact and email; who may export them is the caller's rule), and the AI
 * platform it was attributed to, empty when it was not.
 */
export const leadsSource: ExportSourceFactory = async ({ sql }, scope) => ({
  columns: [
    'Received at (UTC)',
    'Date',
    'Attributed to AI',
    'AI platform',
    'Contact',
    'Email',
    'Landing path',
    'Referrer',
    'UTM source',
    'UTM medium',
    'Session id',
    'Event id',
    'Lead id',
  ],
  page: (after: LeadRow | null, limit: number) =>
    // The (property, received_at) index, read from the range's start; ties on the instant are
    // ordered by id within it.
    sql.rows<LeadRow>(Prisma.sql`
      SELECT id, received_at AS "receivedAt", event_id AS "eventId", contact, email, session_id AS "sessionId",
        landing_path AS "landingPath", referrer, utm_source AS "utmSource", utm_medium AS "utmMedium",
        matched, platform
      FROM leads
      WHERE property_id = ${scope.propertyId}::uuid
        AND received_at >= ${scope.from} AND received_at < ${dayAfter(scope.to)}
        ${after ? Prisma.sql`AND received_at >= ${after.receivedAt} AND (received_at, id) > (${after.receivedAt}, ${after.id}::uuid)` : Prisma.empty}
      ORDER BY received_at, id
      LIMIT ${limit}`),
  cells: (row: LeadRow) => [
    row.receivedAt.toISOString(),
    row.receivedAt.toISOString().slice(0, 10),
    yesNo(row.matched),
    row.matched && row.platform ? aiPlatformName(row.platform) : null,
    row.contact,
    row.email,
    row.landingPath,
    row.referrer,
    row.utmSource,
    row.utmMedium,
    row.sessionId,
    row.eventId,
    row.id,
  ],
});

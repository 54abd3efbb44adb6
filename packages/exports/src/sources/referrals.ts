import { aiPlatformName } from '@vt/attribution';
import { formatUtcDay, Prisma } from '@vt/db';
import type { ExportSourceFactory } from '../export-source.ts';

interface ReferralRow {
  day: string;
  platform: string;
  landingPath: string;
  visits: number;
}

/** AI-referred visits per UTC day, AI platform and landing path, in the daily counts' key order. */
export const referralsSource: ExportSourceFactory = async ({ sql }, scope) => ({
  columns: ['Date', 'Platform', 'Landing path', 'Visits'],
  page: (after: ReferralRow | null, limit: number) =>
    sql.rows<ReferralRow>(Prisma.sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, platform, landing_path AS "landingPath", visits
      FROM ai_referral_daily_counts
      WHERE property_id = ${scope.propertyId}::uuid
        AND day BETWEEN ${formatUtcDay(scope.from)}::date AND ${formatUtcDay(scope.to)}::date
        ${after ? Prisma.sql`AND (day, platform, landing_path) > (${after.day}::date, ${after.platform}, ${after.landingPath})` : Prisma.empty}
      ORDER BY day, platform, landing_path
      LIMIT ${limit}`),
  cells: (row: ReferralRow) => [row.day, aiPlatformName(row.platform), row.landingPath, row.visits],
});

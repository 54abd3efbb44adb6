import type { PrismaClient } from '@vt/db';
import { type ExportKind, openCsvExport } from '@vt/exports';
import { StreamedAnswer } from '@vt/http-operations';
import { findTeamProperty } from '@vt/properties';
import { dayRange } from '../day-range.ts';

/**
 * A property's CSV export as a download: the team's property (404 for another team's, as every
 * property route), the range checked as every view checks it, then the rows streamed. The first
 * page is read before the answer starts, so a failing database still gets the error envelope.
 */
export async function csvDownload(
  db: PrismaClient,
  kind: ExportKind,
  input: { teamId: string; propertyId: string; query: { from?: string; to?: string }; now: Date },
): Promise<StreamedAnswer> {
  const property = await findTeamProperty(db, input.teamId, input.propertyId);
  const csv = await openCsvExport(db, { kind, property, ...dayRange(input.query, input.now) });
  return new StreamedAnswer(csv.body, { 'Content-Disposition': `attachment; filename="${csv.filename}"` });
}

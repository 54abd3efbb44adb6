// CSV exports of a property's data (answers with their verdicts, AI crawler activity, AI
// referrals, leads) over a range of UTC days, read in keyset pages and streamed: the console's
// export operations and `ops export` both open them here.
export {
  type CsvExport,
  type CsvExportOptions,
  type CsvExportRequest,
  EXPORT_PAGE_ROWS,
  openCsvExport,
} from './csv-export.ts';
export { exportFilename } from './export-filename.ts';
export { EXPORT_KINDS, EXPORTS_WITH_PERSONAL_DATA, type ExportKind } from './export-kinds.ts';
export { EXPORT_MAX_DAYS, exportRangeProblem } from './export-range.ts';

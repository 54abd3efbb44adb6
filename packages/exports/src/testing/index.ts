// Reading an export back, and the rows to export, for the tests of everything that writes one
// (`@vt/exports/testing`).
export { BOM, parseCsv } from './parse-csv.ts';
export { type SeededProperty, seedExportRows, seedProperty } from './seed-property.ts';

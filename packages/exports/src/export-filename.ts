import { formatUtcDay } from '@vt/db';
import type { ExportKind } from './export-kinds.ts';

/**
 * `acme-analytics-answers-2026-04-01-to-2026-04-30.csv`: the property, the kind and the range, in
 * ASCII letters, digits and hyphens only, so the name needs no quoting rules in a header and
 * survives every file system. A name with no such letter (日本) falls back to the domain.
 */
export function exportFilename(
  property: { name: string; domain: string },
  kind: ExportKind,
  from: Date,
  to: Date,
): string {
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '');
  const name = slug(property.name) || slug(property.domain) || 'property';
  return `${name}-${kind}-${formatUtcDay(from)}-to-${formatUtcDay(to)}.csv`;
}

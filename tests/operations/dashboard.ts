// Reading deploy/grafana/ai-visibility.json the way Grafana does, for the tests: no Grafana runs
// here, so its structure is checked against what Grafana's dashboard model needs, and its queries
// are run by a real Prometheus (monitoring.e2e.test.ts).

interface Target {
  refId?: string;
  expr?: string;
  datasource?: { type?: string; uid?: string };
}

interface Panel {
  id?: number;
  type?: string;
  title?: string;
  description?: string;
  gridPos?: { h: number; w: number; x: number; y: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
}

interface Dashboard {
  uid?: string;
  title?: string;
  schemaVersion?: number;
  panels?: Panel[];
  templating?: { list?: { name?: string; type?: string; query?: string }[] };
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a JavaScript template
const DATASOURCE = '${datasource}';

/** Every query of every panel, with the panel's title. */
export function dashboardExpressions(dashboard: Dashboard): { panel: string; expr: string }[] {
  return (dashboard.panels ?? []).flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title ?? '', expr: target.expr ?? '' })),
  );
}

/** The service's metric names (vt_…) in some PromQL or text, each once, sorted. */
export function metricNamesIn(texts: string[]): string[] {
  return [...new Set(texts.flatMap((text) => text.match(/\bvt_[a-z0-9_]+/g) ?? []))].sort();
}

/**
 * What would keep Grafana from importing the dashboard, or a panel from drawing: a missing uid or
 * title, no Prometheus data source variable, panels without a query or data source, duplicate ids
 * or refIds, panels off the 24-column grid or on top of each other.
 */
export function dashboardProblems(dashboard: Dashboard): string[] {
  const problems: string[] = [];
  if (!dashboard.uid || !/^[a-zA-Z0-9_-]{1,40}$/.test(dashboard.uid)) problems.push('uid: 1 to 40 of [a-zA-Z0-9_-]');
  if (!dashboard.title) problems.push('no title');
  if (typeof dashboard.schemaVersion !== 'number') problems.push('no schemaVersion');
  const variable = dashboard.templating?.list?.find((v) => v.name === 'datasource');
  if (variable?.type !== 'datasource' || variable.query !== 'prometheus') {
    problems.push('no `datasource` variable of type datasource, query prometheus');
  }
  const panels = dashboard.panels ?? [];
  if (panels.length === 0) problems.push('no panels');
  const ids = new Set<number>();
  const cells = new Map<string, string>();
  for (const panel of panels) {
    const name = panel.title ?? `panel ${panel.id}`;
    if (typeof panel.id !== 'number' || ids.has(panel.id)) problems.push(`${name}: id missing or repeated`);
    else ids.add(panel.id);
    const grid = panel.gridPos;
    if (!grid || grid.x < 0 || grid.w < 1 || grid.h < 1 || grid.x + grid.w > 24) {
      problems.push(`${name}: gridPos outside the 24 columns`);
      continue;
    }
    for (let y = grid.y; y < grid.y + grid.h; y++) {
      for (let x = grid.x; x < grid.x + grid.w; x++) {
        const taken = cells.get(`${x},${y}`);
        if (taken) problems.push(`${name}: overlaps ${taken}`);
        cells.set(`${x},${y}`, name);
      }
    }
    if (panel.type === 'row') continue;
    if (!panel.title || !panel.description) problems.push(`${name}: a panel needs a title and a description`);
    if (panel.datasource?.type !== 'prometheus' || panel.datasource.uid !== DATASOURCE) {
      problems.push(`${name}: data source is not the ${DATASOURCE} variable`);
    }
    const targets = panel.targets ?? [];
    if (targets.length === 0) problems.push(`${name}: no query`);
    const refIds = new Set(targets.map((t) => t.refId));
    if (refIds.size !== targets.length || refIds.has(undefined)) problems.push(`${name}: refIds missing or repeated`);
    for (const target of targets) {
      if (!target.expr?.trim()) problems.push(`${name} ${target.refId}: empty expr`);
      if (target.datasource && target.datasource.uid !== DATASOURCE) {
        problems.push(`${name} ${target.refId}: query data source is not ${DATASOURCE}`);
      }
    }
  }
  return [...new Set(problems)];
}

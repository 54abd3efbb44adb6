import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { promtool, ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// deploy/prometheus as Prometheus's own tool reads it (Debian's promtool, which .ci/run installs):
// the two scrape configurations, the alert rules, and the rules' unit tests. The commands are the
// operators' page's (docs/operators.md, "Monitoring"), run as written from the repository's root.

const dir = `${ROOT}deploy/prometheus`;
const run = (...args: string[]) => promtool(args.map((a) => a.replace(/^deploy\/prometheus/, dir)));

describe('deploy/prometheus', () => {
  it('promtool check config passes both scrape configurations, with the rule file they load', async () => {
    for (const file of ['prometheus.yml', 'prometheus.compose.yml']) {
      const { code, output } = await run('check', 'config', `deploy/prometheus/${file}`);
      expect(output, file).toContain('SUCCESS: 1 rule files found');
      expect(code, output).toBe(0);
      expect(parse(readFileSync(`${dir}/${file}`, 'utf8')).scrape_configs[0].job_name).toBe('vt');
    }
  });

  it('promtool check rules passes the alert rules, and the issue’s three alerts are among them', async () => {
    const { code, output } = await run('check', 'rules', 'deploy/prometheus/alerts.yml');
    expect(code, output).toBe(0);
    const rules = parse(readFileSync(`${dir}/alerts.yml`, 'utf8')).groups.flatMap(
      (g: { rules: { alert: string; expr: string }[] }) => g.rules,
    );
    const exprOf = (alert: string) => rules.find((r: { alert: string }) => r.alert === alert)?.expr;
    expect(exprOf('VtCrawlConnectionNothingArriving')).toContain('vt_crawl_connections{status="nothing_arriving"}');
    expect(exprOf('VtQueueBacklog')).toContain('vt_queue_jobs');
    expect(exprOf('VtJobsFailed')).toContain('vt_jobs_failed_total');
  });

  it('promtool test rules: each alert fires when it should and stays quiet when it should not', async () => {
    const { code, output } = await run('test', 'rules', 'deploy/prometheus/alerts.test.yml');
    expect(output).toContain('SUCCESS');
    expect(code, output).toBe(0);
    const tested = new Set(
      parse(readFileSync(`${dir}/alerts.test.yml`, 'utf8')).tests.flatMap(
        (t: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }) =>
          t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    const alerts = parse(readFileSync(`${dir}/alerts.yml`, 'utf8')).groups.flatMap(
      (g: { rules: { alert: string }[] }) => g.rules.map((r) => r.alert),
    );
    // Every alert has a case where it fires.
    expect(alerts.filter((a: string) => !tested.has(a))).toEqual([]);
  });

  it('the operators’ page’s promtool block runs as written from the repository’s root', async () => {
    const page = readFileSync(`${ROOT}docs/operators.md`, 'utf8');
    const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .filter((b) => b.includes('promtool test rules'));
    expect(blocks).toHaveLength(1);
    const { stdout } = await promisify(execFile)('/bin/sh', ['-ec', blocks[0]!], { cwd: ROOT, timeout: 30_000 });
    expect(stdout.match(/SUCCESS/g)?.length).toBeGreaterThanOrEqual(4);
  });
});

import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JudgingTerms, judgingTermsOf, storeJudgedAnswers } from '@vt/answers';
import { AI_PLATFORM_IDS } from '@vt/attribution';
import { addUtcDays, formatUtcDay, utcDay } from '@vt/db';
import { judgeAnswer } from '@vt/verdict';
import { composeAnswer, DEMO_PROPERTIES } from '../apps/ops/src/demo/content.ts';
import { cpuSeconds, createBenchEnvironment, log, sleep } from './support.ts';

// `pnpm bench:verdicts`: 10,000 answers (the demo's answer composer: markdown lists, headings,
// citations) imported with `ops answers import` as a real process: answers/s, CPU and peak RSS.
// Beside it, in this process: the verdict engine alone on the same answers, and the baseline the
// import is compared with, storing the same answers with a verdict computed by nothing (the
// database floor: what judging adds is the difference).

const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 10_000);
const env = await createBenchEnvironment();
const dir = mkdtempSync(join(tmpdir(), 'vt-bench-verdicts-'));
try {
  const team = await env.db.team.create({ data: { name: 'Bench', slug: `bench-${env.runId}` } });
  const spec = DEMO_PROPERTIES[0] as (typeof DEMO_PROPERTIES)[number];
  const property = await env.db.property.create({
    data: { teamId: team.id, name: spec.name, domain: spec.domain, plan: 'growth', brandTerms: [...spec.brandTerms] },
  });
  await env.db.competitor.createMany({
    data: spec.competitors.map((c) => ({ propertyId: property.id, name: c.name, terms: [c.name] })),
  });
  const floorProperty = await env.db.property.create({
    data: { teamId: team.id, name: 'Floor', domain: 'floor.example', plan: 'growth', brandTerms: ['Floor'] },
  });

  // The answers: 100 prompts × 5 platforms × 20 days, deterministic.
  let seed = 42;
  const rng = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const today = utcDay(new Date());
  const lines: { prompt: string; model: string; date: string; answer: string; citations: string[] }[] = [];
  for (let i = 0; lines.length < ANSWERS; i++) {
    const prompt = spec.prompts[i % spec.prompts.length]?.text ?? 'which tool?';
    const model = AI_PLATFORM_IDS[i % AI_PLATFORM_IDS.length] as string;
    const date = formatUtcDay(addUtcDays(today, -(Math.floor(i / 500) % 20)));
    const answer = composeAnswer(rng, spec, prompt, model, rng() < 0.5);
    lines.push({
      prompt: `q${Math.floor(i / 5) % 100}`,
      model,
      date,
      answer,
      citations: [`https://review.example/${i % 37}?utm_source=x`],
    });
  }
  const file = join(dir, 'answers.ndjson');
  const out = createWriteStream(file);
  for (const line of lines) out.write(`${JSON.stringify({ propertyId: property.id, ...line })}\n`);
  out.end();
  await once(out, 'finish');
  const bytes = readFileSync(file).length;
  log(
    `${ANSWERS} answers, ${(bytes / 1024 / 1024).toFixed(1)} MiB, average ${Math.round(bytes / ANSWERS)} bytes a line`,
  );

  // 1. The import, as an operator runs it.
  const started = performance.now();
  const child = env.start(['apps/ops/src/main.ts', 'answers', 'import', '--file', file, '--json']);
  let peakKiB = 0;
  let cpu = 0;
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKiB = Math.max(peakKiB, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
      cpu = cpuSeconds(child) ?? cpu;
    } catch {
      // exited between polls
    }
  }, 20);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(poll);
  const importSeconds = (performance.now() - started) / 1000;
  const stored = await env.db.response.count({ where: { propertyId: property.id } });
  if (code !== 0 || stored !== ANSWERS) throw new Error(`import exited ${code} and stored ${stored} of ${ANSWERS}`);

  // 2. The verdict engine alone, in this process, on the same answers.
  const terms = (await judgingTermsOf(env.db, property.id)) as JudgingTerms;
  let t0 = performance.now();
  const verdicts = lines.map((l) => judgeAnswer({ answer: l.answer, citations: l.citations, ...terms }));
  const judgeSeconds = (performance.now() - t0) / 1000;

  // 3. The baseline: the same answers stored in the same batches, with a verdict that costs nothing.
  const prompts = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      env.db.prompt.create({ data: { propertyId: floorProperty.id, text: `q${i}` } }),
    ),
  );
  const nothing = {
    ...(verdicts[0] as (typeof verdicts)[number]),
    mentioned: false,
    matchedTerm: null,
    position: null,
    sentiment: null,
    competitorMentions: [],
  };
  t0 = performance.now();
  for (let i = 0; i < lines.length; i += 500) {
    const batch = lines.slice(i, i + 500).map((l, k) => ({
      propertyId: floorProperty.id,
      promptId: (prompts[Math.floor((i + k) / 5) % 100] as { id: string }).id,
      model: l.model,
      day: new Date(`${l.date}T00:00:00Z`),
      text: l.answer,
      verdict: { ...nothing, excerpt: l.answer.slice(0, 300) },
    }));
    await env.db.$transaction((tx) => storeJudgedAnswers(tx, batch));
  }
  const floorSeconds = (performance.now() - t0) / 1000;

  const mentioned = verdicts.filter((v) => v.mentioned).length;
  log('');
  log(
    `import (ops answers import, a process: start-up, read, judge, store)  ${Math.round(ANSWERS / importSeconds)} answers/s  (${importSeconds.toFixed(2)} s, ${cpu.toFixed(2)} CPU s, peak RSS ${Math.round(peakKiB / 1024)} MiB)`,
  );
  log(
    `verdict engine alone (this process)                                   ${Math.round(ANSWERS / judgeSeconds)} answers/s  (${((judgeSeconds * 1e6) / ANSWERS).toFixed(0)} µs an answer; ${mentioned} of ${ANSWERS} mention the brand)`,
  );
  log(
    `baseline: storing the same answers, no judging (this process)         ${Math.round(ANSWERS / floorSeconds)} answers/s`,
  );
  await sleep(10);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await env.cleanUp([]);
}

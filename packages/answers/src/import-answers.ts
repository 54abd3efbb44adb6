import { AI_PLATFORM_IDS } from '@vt/attribution';
import { formatUtcDay, type PrismaClient, parseUtcDay, utcDay } from '@vt/db';
import { judgeAnswer } from '@vt/verdict';
import { z } from 'zod';
import { type JudgingTerms, judgingTermsOf } from './judging-terms.ts';
import { type JudgedAnswer, storeJudgedAnswers } from './store-answers.ts';

/** One line of an answers file: an answer collected elsewhere, for one property, prompt, platform and UTC day. */
const importedAnswerSchema = z.strictObject({
  propertyId: z.uuid(),
  prompt: z.string().trim().min(1).max(2000),
  model: z.enum(AI_PLATFORM_IDS),
  date: z.iso.date(),
  answer: z.string().min(1).max(200_000),
  citations: z.array(z.string().max(2048)).max(200).default([]),
});

export interface ImportResult {
  /** Lines stored: new answers and replaced ones. */
  imported: number;
  /** Of those, how many replaced an answer already stored for the same property, prompt, platform and day. */
  replaced: number;
  rejected: { line: number; reason: string }[];
}

interface PropertyContext {
  terms: JudgingTerms;
  promptIds: Map<string, string>;
}

/**
 * Imports answers, one JSON object per line, through the same judging as collection. A bad line
 * is refused with its number and reason and the rest go on; a prompt text the property does not
 * have yet becomes one of its prompts. Batches of `batchSize` are stored in one transaction each.
 */
export async function importAnswers(
  db: PrismaClient,
  lines: AsyncIterable<string> | Iterable<string>,
  options: { batchSize?: number; now?: Date; onProgress?: (result: ImportResult, linesRead: number) => void } = {},
): Promise<ImportResult> {
  const batchSize = options.batchSize ?? 500;
  const today = formatUtcDay(utcDay(options.now ?? new Date()));
  const result: ImportResult = { imported: 0, replaced: 0, rejected: [] };
  const properties = new Map<string, PropertyContext | null>();
  let batch: JudgedAnswer[] = [];
  let lineNumber = 0;

  const flush = async () => {
    if (!batch.length) return;
    const stored = await db.$transaction((tx) => storeJudgedAnswers(tx, batch), { timeout: 120_000 });
    result.imported += batch.length;
    result.replaced += stored.replaced;
    batch = [];
    options.onProgress?.(result, lineNumber);
  };

  const contextOf = async (propertyId: string): Promise<PropertyContext | null> => {
    if (!properties.has(propertyId)) {
      const terms = await judgingTermsOf(db, propertyId);
      properties.set(propertyId, terms ? { terms, promptIds: new Map() } : null);
    }
    return properties.get(propertyId) ?? null;
  };

  const promptIdOf = async (propertyId: string, context: PropertyContext, text: string) => {
    let id = context.promptIds.get(text);
    if (!id) {
      const prompt = await db.prompt.upsert({
        where: { propertyId_text: { propertyId, text } },
        update: {},
        create: { propertyId, text },
        select: { id: true },
      });
      id = prompt.id;
      context.promptIds.set(text, id);
    }
    return id;
  };

  for await (const raw of lines) {
    lineNumber++;
    if (!raw.trim()) continue;
    const reject = (reason: string) => result.rejected.push({ line: lineNumber, reason });
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      reject('not a JSON object');
      continue;
    }
    const parsed = importedAnswerSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue?.path.join('.') || 'line';
      reject(`${field}: ${issue?.code === 'unrecognized_keys' ? 'unknown field' : issue?.message}`);
      continue;
    }
    const line = parsed.data;
    const day = parseUtcDay(line.date);
    if (!day) {
      reject(`date: ${line.date} is not a calendar day`);
      continue;
    }
    if (line.date > today) {
      reject(`date: ${line.date} is in the future`);
      continue;
    }
    const context = await contextOf(line.propertyId);
    if (!context) {
      reject(`propertyId: no property ${line.propertyId}`);
      continue;
    }
    batch.push({
      propertyId: line.propertyId,
      promptId: await promptIdOf(line.propertyId, context, line.prompt),
      model: line.model,
      day,
      text: line.answer,
      verdict: judgeAnswer({ answer: line.answer, citations: line.citations, ...context.terms }),
    });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return result;
}

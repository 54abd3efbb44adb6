import { judgingTermsOf, storeJudgedAnswers } from '@vt/answers';
import type { PrismaClient } from '@vt/db';
import type { JobOutcome } from '@vt/service-runtime';
import { judgeAnswer } from '@vt/verdict';

const PAGE = 500;

/**
 * Judges every stored answer of a property again with its current terms, in one transaction: the
 * verdicts, sources, competitor mentions and daily counts change together, so /v1 shows either the
 * old verdicts or the new ones, never a mix. The citations are the stored sources (the platform's
 * citations and the answer's links, already normalised: judging them again gives them back).
 */
export async function rejudgeProperty(db: PrismaClient, propertyId: string): Promise<JobOutcome<'property_gone'>> {
  const terms = await judgingTermsOf(db, propertyId);
  if (!terms) return { applied: false, reason: 'property_gone' };
  await db.$transaction(
    async (tx) => {
      for (let cursor: string | undefined; ; ) {
        const page = await tx.response.findMany({
          where: { propertyId },
          orderBy: { id: 'asc' },
          take: PAGE,
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
          include: { sources: { orderBy: { ordinal: 'asc' }, select: { url: true } } },
        });
        if (!page.length) break;
        await storeJudgedAnswers(
          tx,
          page.map((r) => ({
            propertyId,
            promptId: r.promptId,
            model: r.model,
            day: r.day,
            text: r.text,
            collectedAt: r.collectedAt,
            // Judged again, not asked again: where it was asked, and whether it was cut short, stay.
            country: r.country,
            language: r.language,
            truncated: r.truncated,
            verdict: judgeAnswer({ answer: r.text, citations: r.sources.map((s) => s.url), ...terms }),
          })),
        );
        cursor = page[page.length - 1]?.id;
      }
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
  return { applied: true };
}

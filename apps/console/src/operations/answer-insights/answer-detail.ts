import { judgingTermsOf } from '@vt/answers';
import { OperationError, rankAmongBrands, sentimentInWords } from '@vt/contracts/console';
import type { PrismaClient } from '@vt/db';
import { namedSpans } from '@vt/verdict';

/**
 * One answer of one property, whole: its verdict, the competitors it names, its citations, and
 * where the brand's and competitors' names are in its text, found with the property's current
 * terms exactly as the verdict finds them. Another property's answer is a 404 like a missing one.
 */
export async function answerDetail(db: PrismaClient, property: { id: string; name: string }, responseId: string) {
  const [response, terms, tracked] = await Promise.all([
    db.response.findFirst({
      where: { id: responseId, propertyId: property.id },
      include: {
        prompt: { select: { text: true } },
        sources: { orderBy: { ordinal: 'asc' }, select: { url: true, domain: true } },
        competitorMentions: {
          orderBy: { position: 'asc' },
          select: { position: true, competitor: { select: { id: true, name: true } } },
        },
      },
    }),
    judgingTermsOf(db, property.id),
    db.competitor.findMany({ where: { propertyId: property.id }, select: { id: true, name: true } }),
  ]);
  if (!response) throw new OperationError('NOT_FOUND', 'No such answer in this property.');
  const mentioned = response.mentioned;
  const position = mentioned ? response.position : null;
  const sentiment = mentioned ? response.sentiment : null;
  const competitors = response.competitorMentions.map((m) => ({ ...m.competitor, position: m.position }));
  const names = new Map(tracked.map((c) => [c.id, c.name]));
  return {
    id: response.id,
    promptId: response.promptId,
    prompt: response.prompt.text,
    model: response.model,
    date: response.day.toISOString().slice(0, 10),
    mentioned,
    matchedTerm: mentioned ? response.matchedTerm : null,
    position,
    rank: rankAmongBrands(
      position,
      competitors.map((c) => c.position),
    ),
    brandsNamed: competitors.length + (mentioned ? 1 : 0),
    sentiment,
    sentimentWord: sentimentInWords(sentiment),
    text: response.text,
    competitors,
    citations: response.sources,
    highlights: terms
      ? namedSpans(response.text, terms).map((span) => ({
          start: span.start,
          end: span.end,
          kind: span.competitorId === null ? ('brand' as const) : ('competitor' as const),
          name: span.competitorId === null ? property.name : (names.get(span.competitorId) ?? ''),
        }))
      : [],
  };
}

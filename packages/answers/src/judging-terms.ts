import type { PrismaClient } from '@vt/db';
import type { JudgeInput } from '@vt/verdict';

/** What a property's answers are judged against: its brand terms and domain, its competitors' terms and domains. */
export type JudgingTerms = Pick<JudgeInput, 'brandTerms' | 'competitors'>;

const unique = (terms: (string | null | undefined)[]) => [
  ...new Set(terms.filter((t): t is string => Boolean(t?.trim()))),
];

/** The property's judging terms, or null when there is no such property (deleted since, say). */
export async function judgingTermsOf(
  db: Pick<PrismaClient, 'property' | 'competitor'>,
  propertyId: string,
): Promise<JudgingTerms | null> {
  const [property, competitors] = await Promise.all([
    db.property.findUnique({
      where: { id: propertyId },
      select: { name: true, domain: true, brandTerms: true },
    }),
    db.competitor.findMany({ where: { propertyId }, select: { id: true, name: true, domain: true, terms: true } }),
  ]);
  return property ? judgingTermsFrom(property, competitors) : null;
}

interface Named {
  name: string;
  domain: string | null;
}

/** The judging terms of a property and its competitors already read. */
export function judgingTermsFrom(
  property: Named & { brandTerms: string[] },
  competitors: readonly (Named & { id: string; terms: string[] })[],
): JudgingTerms {
  return {
    brandTerms: unique([...(property.brandTerms.length ? property.brandTerms : [property.name]), property.domain]),
    competitors: competitors.map((c) => ({
      id: c.id,
      terms: unique([...(c.terms.length ? c.terms : [c.name]), c.domain]),
    })),
  };
}

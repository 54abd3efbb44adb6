import type { PrismaClient } from '@vt/db';
import { uniqueSlug } from '@vt/test-support';

/**
 * A team and a paid (growth) property "Acme" with `count` active prompts, each text unique to the
 * test (its slug, from `label`): what a collection needs to ask something.
 */
export async function propertyWithPrompts(db: PrismaClient, count: number, label = 'collect') {
  const slug = uniqueSlug(label);
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.io', plan: 'growth', brandTerms: ['Acme'] },
  });
  const prompts = [];
  for (let i = 0; i < count; i++) {
    prompts.push(await db.prompt.create({ data: { propertyId: property.id, text: `question ${i} ${slug}?` } }));
  }
  return { property, prompts };
}

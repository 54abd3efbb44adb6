import { isUuid } from '@vt/contracts';
import { OperationError } from '@vt/contracts/console';
import { isUniqueViolation, type Plan, Prisma, type PrismaClient, type Property } from '@vt/db';
import { beyondCursor, cursorPage, inPageOrder, type Page, pageOrder, type SortColumn } from '@vt/read-model';

// A team's properties and what /v1 serves about them that people set: brand terms, competitors
// and prompts. Every function takes the team, so a property of another team is simply not found.

const propertyNotFound = () => new OperationError('NOT_FOUND', 'No property with that id in this team.');

function propertyView(property: Property) {
  return {
    id: property.id,
    name: property.name,
    domain: property.domain,
    plan: property.plan,
    subscriptionStatus: property.subscriptionStatus,
    brandTerms: property.brandTerms,
    countDualUseAsAi: property.countDualUseAsAi,
    country: property.country,
    language: property.language,
    createdAt: property.createdAt.toISOString(),
  };
}

const competitorView = (c: { id: string; name: string; domain: string | null; terms: string[] }) => ({
  id: c.id,
  name: c.name,
  domain: c.domain,
  terms: c.terms,
});

const promptView = (p: {
  id: string;
  text: string;
  tags: string[];
  active: boolean;
  country: string | null;
  language: string | null;
  createdAt: Date;
}) => ({
  id: p.id,
  text: p.text,
  tags: p.tags,
  active: p.active,
  country: p.country,
  language: p.language,
  createdAt: p.createdAt.toISOString(),
});

/** Where a property's or a prompt's questions are asked; null clears a field, absent keeps it. */
export interface LocationPatch {
  country?: string | null;
  language?: string | null;
}

/** The property `id` of `teamId` (null team: any team, for the operator), or NOT_FOUND. */
export async function findTeamProperty(db: PrismaClient, teamId: string | null, id: string): Promise<Property> {
  const property = isUuid(id) ? await db.property.findFirst({ where: { id, ...(teamId ? { teamId } : {}) } }) : null;
  if (!property) throw propertyNotFound();
  return property;
}

const PROPERTY_ORDER: SortColumn[] = [
  { column: 'name', type: 'text' },
  { column: 'id', type: 'uuid' },
];

/** A page of the team's properties, by name, then id. */
export async function listProperties(db: PrismaClient, teamId: string, page: Page) {
  const read = await db.$queryRaw<{ id: string; name: string }[]>(Prisma.sql`
    SELECT id, name FROM properties
    WHERE team_id = ${teamId}::uuid AND ${beyondCursor(PROPERTY_ORDER, page)}
    ${pageOrder(PROPERTY_ORDER, page)}`);
  const { rows, ...cursors } = cursorPage(read, page, (row) => [row.name, row.id]);
  const found = await db.property.findMany({ where: { id: { in: rows.map((row) => row.id) } } });
  return { properties: inPageOrder(rows, found).map(propertyView), ...cursors };
}

/** A property with its competitors and prompts (newest first). */
export async function propertyDetail(db: PrismaClient, property: Property) {
  const [competitors, prompts] = await Promise.all([
    db.competitor.findMany({ where: { propertyId: property.id }, orderBy: [{ name: 'asc' }] }),
    db.prompt.findMany({ where: { propertyId: property.id }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] }),
  ]);
  return { ...propertyView(property), competitors: competitors.map(competitorView), prompts: prompts.map(promptView) };
}

/** Creates a property; its brand terms default to its name. */
export async function createProperty(
  db: PrismaClient,
  input: { teamId: string; name: string; domain: string; plan: Plan; brandTerms?: string[] } & LocationPatch,
): Promise<Property> {
  return db.property.create({
    data: {
      teamId: input.teamId,
      name: input.name,
      domain: input.domain,
      plan: input.plan,
      brandTerms: input.brandTerms?.length ? input.brandTerms : [input.name],
      country: input.country ?? null,
      language: input.language ?? null,
    },
  });
}

/**
 * Renames, changes the plan or the brand terms. A plan change makes the subscription active
 * unless `lapsed` says otherwise (billing is outside this service; the operator sets lapses).
 */
export async function updateProperty(
  db: PrismaClient,
  property: Property,
  patch: {
    name?: string;
    plan?: Plan;
    brandTerms?: string[];
    countDualUseAsAi?: boolean;
    lapsed?: boolean;
  } & LocationPatch,
): Promise<Property> {
  const { lapsed, brandTerms, ...rest } = patch;
  return db.property.update({
    where: { id: property.id },
    data: {
      ...rest,
      ...(brandTerms ? { brandTerms: brandTerms.length ? brandTerms : [patch.name ?? property.name] } : {}),
      ...(patch.plan !== undefined || lapsed !== undefined ? { subscriptionStatus: lapsed ? 'lapsed' : 'active' } : {}),
    },
  });
}

/** Deletes a property and everything collected for it (answers, counts, leads, the delivery log). */
export async function deleteProperty(db: PrismaClient, property: Property): Promise<void> {
  await db.property.delete({ where: { id: property.id } });
}

const alreadyExists = (message: string) => new OperationError('ALREADY_EXISTS', message);

export async function addCompetitor(
  db: PrismaClient,
  property: Property,
  input: { name: string; domain?: string; terms?: string[] },
) {
  try {
    const competitor = await db.competitor.create({
      data: {
        propertyId: property.id,
        name: input.name,
        domain: input.domain ?? null,
        terms: input.terms?.length ? input.terms : [input.name],
      },
    });
    return competitorView(competitor);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`${input.name} is already a competitor of this property.`);
    throw err;
  }
}

export async function removeCompetitor(db: PrismaClient, property: Property, competitorId: string): Promise<void> {
  const { count } = await db.competitor.deleteMany({ where: { id: competitorId, propertyId: property.id } });
  if (!count) throw new OperationError('NOT_FOUND', 'No competitor with that id on this property.');
}

export async function addPrompt(
  db: PrismaClient,
  property: Property,
  input: { text: string; tags?: string[] } & LocationPatch,
) {
  try {
    return promptView(
      await db.prompt.create({
        data: {
          propertyId: property.id,
          text: input.text,
          tags: input.tags ?? [],
          country: input.country ?? null,
          language: input.language ?? null,
        },
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('This property already has a prompt with that text.');
    throw err;
  }
}

const promptNotFound = () => new OperationError('NOT_FOUND', 'No prompt with that id on this property.');

export async function updatePrompt(
  db: PrismaClient,
  property: Property,
  promptId: string,
  patch: { active?: boolean; tags?: string[] } & LocationPatch,
) {
  const { count } = await db.prompt.updateMany({ where: { id: promptId, propertyId: property.id }, data: patch });
  if (!count) throw promptNotFound();
  return promptView(await db.prompt.findUniqueOrThrow({ where: { id: promptId } }));
}

/** Deletes a prompt with the answers collected for it; pausing (`active: false`) keeps them. */
export async function removePrompt(db: PrismaClient, property: Property, promptId: string): Promise<void> {
  const { count } = await db.prompt.deleteMany({ where: { id: promptId, propertyId: property.id } });
  if (!count) throw promptNotFound();
}

import { createConfig, lintFromString } from '@redocly/openapi-core';
import { parseConfig, readApiConfigSchema } from '@vt/config';
import {
  buildOpenApiDocument,
  DEFAULT_API_CONTACT,
  READ_API_TAGS,
  type ReadEndpoint,
  readEndpoints,
  sourceUrlsQuery,
} from '@vt/contracts';
import { buildConsoleOpenApiDocument } from '@vt/contracts/console';
import { describe, expect, it } from 'vitest';
import { apiContactOf } from './start.ts';

// The document as the tools its users run read it: Redocly's linter (whose example check, like
// Prism's validator, reads `pattern` as an ECMAScript regex with no flags), tags that group the
// reference page by resource, an info block with contact and licence, and ResponseDetail as one
// plain object schema.

type Json = Record<string, unknown>;
const documentOf = (build: () => unknown) => JSON.parse(JSON.stringify(build())) as Json;
const document = documentOf(() => buildOpenApiDocument());
const catalogue: ReadEndpoint[] = Object.values(readEndpoints);

/**
 * Redocly's recommended-strict rules (every one an error), plus the rules we chose to hold the
 * document to: a contact, exactly one declared tag per operation. Turned off, on purpose:
 * `tags-alphabetical` (the tags follow the resources' order, Responses first, as the spec does).
 */
async function redoclyProblems(doc: Json): Promise<string[]> {
  const config = await createConfig({
    extends: ['recommended-strict'],
    rules: {
      'info-contact': 'error',
      'operation-tag-defined': 'error',
      'operation-singular-tag': 'error',
      'tags-alphabetical': 'off',
    },
  });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
}

/** Every `pattern` in a document, with where it is. */
function patternsOf(node: unknown, at = '#'): { at: string; pattern: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => patternsOf(item, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'pattern' && typeof value === 'string' ? [{ at, pattern: value }] : patternsOf(value, `${at}/${key}`),
  );
}

function domainParameterSchema(doc: Json): Json {
  const operation = (doc.paths as Json)['/v1/sources/urls'] as {
    get: { parameters: { name: string; schema: Json }[] };
  };
  const domain = operation.get.parameters.find((p) => p.name === 'domain');
  if (!domain) throw new Error('no domain parameter on /v1/sources/urls');
  return domain.schema;
}

describe('the OpenAPI document under Redocly', () => {
  it('[READ-30] lints with no error and no warning under recommended-strict and our chosen rules', async () => {
    expect(await redoclyProblems(document)).toEqual([]);
  });

  it('[READ-30] still lints clean with a deployment’s contact URL and email in it', async () => {
    const contact = apiContactOf({
      READ_API_CONTACT_URL: 'https://support.acme.example/api',
      READ_API_CONTACT_EMAIL: 'api@acme.example',
    });
    const withContact = documentOf(() => buildOpenApiDocument(undefined, { contact }));
    expect((withContact.info as Json).contact).toEqual({
      name: DEFAULT_API_CONTACT.name,
      url: 'https://support.acme.example/api',
      email: 'api@acme.example',
    });
    expect(await redoclyProblems(withContact)).toEqual([]);
  });

  it('[READ-30] the example check is not vacuous: the old `/u` in the domain pattern fails it', async () => {
    const broken = structuredClone(document);
    domainParameterSchema(broken).pattern = '^[^\\p{Cc}]+$/u';
    const problems = await redoclyProblems(broken);
    expect(problems).toEqual([expect.stringMatching(/^error no-invalid-schema-examples: .*must match pattern/)]);
  });
});

describe('patterns', () => {
  it('[READ-30] no pattern in the read or the console document carries a JavaScript regex flag', () => {
    const patterns = [
      ...patternsOf(document),
      ...patternsOf(documentOf(() => buildConsoleOpenApiDocument())).map((p) => ({ ...p, at: `console ${p.at}` })),
    ];
    expect(patterns.length).toBeGreaterThan(20);
    for (const { at, pattern } of patterns) {
      expect(pattern, at).not.toMatch(/\/[dgimsuvy]+$/);
      // JSON Schema's pattern is an ECMA-262 regex; validators compile it with the u flag.
      expect(() => new RegExp(pattern, 'u'), at).not.toThrow();
    }
  });

  it('[READ-30] the domain pattern in the document accepts and refuses what the query schema does', () => {
    const schema = domainParameterSchema(document);
    expect(schema.example).toBe('wikipedia.org');
    const documented = new RegExp(schema.pattern as string, 'u');
    const samples = [
      'wikipedia.org',
      'www.Example.COM',
      'xn--bcher-kva.example',
      'a b',
      'bad\u0000host',
      'tab\there',
      'c1\u0085',
      'del\u007f',
    ];
    for (const sample of samples) {
      const byZod = sourceUrlsQuery.safeParse({ domain: sample }).success;
      expect(documented.test(sample), JSON.stringify(sample)).toBe(byZod);
    }
    expect(documented.test(schema.example as string)).toBe(true);
    expect(documented.test('bad\u0000host')).toBe(false);
  });
});

describe('tags, info and schemas', () => {
  it('[READ-30] tags every operation with exactly one resource tag, each declared once with a description, in resource order', () => {
    const tags = document.tags as { name: string; description: string }[];
    expect(tags.map((t) => t.name)).toEqual(READ_API_TAGS.map((t) => t.name));
    for (const tag of tags) expect(tag.description.length, tag.name).toBeGreaterThan(10);
    const byTag = new Map<string, string[]>();
    for (const endpoint of catalogue) {
      const operation = ((document.paths as Json)[endpoint.path] as Json).get as { tags: string[] };
      expect(operation.tags, endpoint.operationId).toEqual([endpoint.tag]);
      byTag.set(endpoint.tag, [...(byTag.get(endpoint.tag) ?? []), endpoint.operationId]);
    }
    expect(Object.fromEntries(byTag)).toEqual({
      Responses: ['listResponses', 'getResponse'],
      Tasks: ['listTasks'],
      Properties: ['listProperties'],
      Prompts: ['listPrompts'],
      Visibility: ['getVisibility'],
      Competitors: ['listCompetitors'],
      Sources: ['listSources', 'listSourceUrls'],
    });
  });

  it('[READ-30] declares only the tags of the endpoints it documents', () => {
    const partial = documentOf(() => buildOpenApiDocument([readEndpoints.listTasks, readEndpoints.listSources]));
    expect((partial.tags as { name: string }[]).map((t) => t.name)).toEqual(['Tasks', 'Sources']);
  });

  it('[READ-30] info carries a contact and a licence with an SPDX identifier', () => {
    const info = document.info as Json;
    expect(info.contact).toEqual({ name: 'The operator of this deployment' });
    expect(info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
  });

  it('READ_API_CONTACT_URL and READ_API_CONTACT_EMAIL are checked at start and fill the contact', () => {
    const config = parseConfig('read-api', readApiConfigSchema, {
      READ_API_CONTACT_URL: 'https://acme.example/support',
      READ_API_CONTACT_EMAIL: 'api@acme.example',
    });
    expect(apiContactOf(config)).toEqual({
      name: 'The operator of this deployment',
      url: 'https://acme.example/support',
      email: 'api@acme.example',
    });
    const unset = parseConfig('read-api', readApiConfigSchema, {
      READ_API_CONTACT_URL: '',
      READ_API_CONTACT_EMAIL: '',
    });
    expect(apiContactOf(unset)).toEqual(DEFAULT_API_CONTACT);
    expect(() =>
      parseConfig('read-api', readApiConfigSchema, {
        READ_API_CONTACT_URL: 'support page',
        READ_API_CONTACT_EMAIL: 'not-an-email',
      }),
    ).toThrow(/READ_API_CONTACT_URL[\s\S]*READ_API_CONTACT_EMAIL|READ_API_CONTACT_EMAIL[\s\S]*READ_API_CONTACT_URL/);
  });

  it('[READ-30] ResponseDetail is one object schema: every Response field plus text, no allOf', () => {
    const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
    const list = schemas.Response!;
    const detail = schemas.ResponseDetail!;
    expect(detail).not.toHaveProperty('allOf');
    expect(JSON.stringify(detail)).not.toContain('$ref');
    expect(detail.type).toBe('object');
    const properties = detail.properties as Json;
    expect(Object.keys(properties)).toEqual([...Object.keys(list.properties as Json), 'text']);
    for (const [name, schema] of Object.entries(list.properties as Json))
      expect(properties[name], name).toEqual(schema);
    expect(properties.text).toEqual({ type: 'string', description: 'The complete answer as markdown.' });
    expect(detail.required).toEqual([...(list.required as string[]), 'text']);
  });
});

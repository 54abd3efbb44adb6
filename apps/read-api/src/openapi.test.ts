import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApiDocument, RATE_LIMIT_HEADERS, type ReadEndpoint, readEndpoints } from '@vt/contracts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

// The document the read API serves, checked three ways: against the OpenAPI 3.1 schema, against
// what it promises about every catalogued operation, and against real answers of the running app.

const TODAY = new Date('2026-03-15T12:00:00Z');
const harness = createReadApiHarness({ now: TODAY });
let world: ReadWorld;

beforeAll(async () => {
  world = await seedReadWorld(harness.db, TODAY);
}, 60_000);
afterAll(() => harness.close());

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface MediaResponse {
  description: string;
  headers?: Record<string, { schema?: Json; required?: boolean }>;
  content?: Record<string, { schema: Json }>;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, MediaResponse>;
}
interface Document extends Json {
  openapi: string;
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, Json>;
    securitySchemes: Record<string, Json>;
    headers: Record<string, { schema?: Json }>;
  };
}

const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Document;
const catalogue: ReadEndpoint[] = Object.values(readEndpoints);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

function operationOf(endpoint: ReadEndpoint): Operation {
  const operation = document.paths[endpoint.path]?.get as Operation | undefined;
  if (!operation) throw new Error(`${endpoint.operationId}: GET ${endpoint.path} is not in the document`);
  return operation;
}

function allOperations(): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

/** `/v1/responses/{id}` with the id filled in. */
const concrete = (path: string, id?: string) => (id ? path.replace('{id}', id) : path);

/**
 * JSON Schema 2020-12 validation of the document's schemas. The component schemas become `$defs`
 * of one schema, so `#/components/schemas/X` references resolve as they do in the document. Strict
 * mode refuses unknown keywords and formats, so a schema the generator got subtly wrong fails to
 * compile instead of silently accepting anything.
 */
const SCHEMAS_ID = 'urn:vt:read-api:components';
function createSchemaValidator() {
  // OpenAPI 3.1 is JSON Schema 2020-12 plus the OAS base vocabulary's annotation keywords.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  const rewrite = <T>(schema: T): T =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SCHEMAS_ID}#/$defs/`));
  ajv.addSchema({ $id: SCHEMAS_ID, $defs: rewrite(document.components.schemas) });
  return {
    component: (name: string) => ajv.getSchema(`${SCHEMAS_ID}#/$defs/${name}`) as ValidateFunction,
    compile: (schema: Json) => ajv.compile(rewrite(schema)),
    errorsOf: (validate: ValidateFunction, data: unknown) =>
      validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`),
  };
}
const schemas = createSchemaValidator();

/** A parameter's schema, through its `$ref` when it names a component. */
function resolved(schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? document.components.schemas[ref.replace('#/components/schemas/', '')] : schema;
}

function responseSchemaOf(endpoint: ReadEndpoint, status: number): ValidateFunction {
  const schema = operationOf(endpoint).responses[status]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${endpoint.operationId}: no application/json schema for ${status}`);
  return schemas.compile(schema);
}

describe('GET /openapi.json', () => {
  it('[READ-30] serves buildOpenApiDocument() as JSON with permissive CORS', async () => {
    const res = await request(harness.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toStrictEqual(document);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('[READ-30] is valid OpenAPI 3.1 (openapi-schema-validator) with zero errors', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('[READ-30] every schema in it is strict JSON Schema 2020-12 (Ajv strict mode compiles each one)', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toContain('ErrorEnvelope');
    for (const name of names) expect(schemas.component(name), name).toBeTypeOf('function');
    for (const { path, operation } of allOperations()) {
      for (const parameter of operation.parameters ?? []) {
        expect(() => schemas.compile(parameter.schema ?? {}), `${path} ${parameter.name}`).not.toThrow();
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          const ref = (header as Json).$ref;
          const { schema } = typeof ref === 'string' ? document.components.headers[ref.split('/').at(-1)!]! : header;
          expect(schema, `${path} ${status} ${name}`).toBeDefined();
          expect(() => schemas.compile(schema!), `${path} ${status} ${name}`).not.toThrow();
        }
        for (const media of Object.values(response.content ?? {})) {
          expect(() => schemas.compile(media.schema), `${path} ${status}`).not.toThrow();
        }
      }
    }
  });

  it('[READ-30] gives every operation a unique operationId and documents exactly the catalogue, GET only', () => {
    const operations = allOperations();
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.every(({ method }) => method === 'get')).toBe(true);
    expect(operations.map(({ path, operation }) => `${path} ${operation.operationId}`).sort()).toEqual(
      catalogue.map((endpoint) => `${endpoint.path} ${endpoint.operationId}`).sort(),
    );
    expect(Object.keys(document.paths).every((path) => path.startsWith('/v1/'))).toBe(true);
  });

  it('[SVC-2] has no bulk or batch read: every list pages with limit (at most 1000) and offset, and nothing takes a body', () => {
    for (const { path, operation } of allOperations()) {
      expect(operation.requestBody, path).toBeUndefined();
      if (path.includes('{')) continue;
      const parameters = operation.parameters ?? [];
      expect(parameters.find((p) => p.name === 'limit')?.schema?.maximum, path).toBe(1000);
      expect(
        parameters.some((p) => p.name === 'offset'),
        path,
      ).toBe(true);
    }
  });

  it('[READ-30] types every parameter: the query schema of each list endpoint, the path id of the detail', () => {
    const scalarTypes = ['string', 'integer', 'number', 'boolean'];
    for (const endpoint of catalogue) {
      const parameters = operationOf(endpoint).parameters ?? [];
      for (const parameter of parameters) {
        expect(scalarTypes, `${endpoint.operationId} ${parameter.name}`).toContain(resolved(parameter.schema)?.type);
      }
      const query = parameters.filter((p) => p.in === 'query');
      const expectedQuery = endpoint.query ? Object.keys((endpoint.query as z.ZodObject).shape) : [];
      expect(query.map((p) => p.name).sort(), endpoint.operationId).toEqual(expectedQuery.sort());
      expect(query.every((p) => p.required === false)).toBe(true);
      const path = parameters.filter((p) => p.in === 'path');
      const pathNames = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(path.map((p) => p.name)).toEqual(pathNames);
      expect(path.every((p) => p.required === true && p.schema?.format === 'uuid')).toBe(true);
      // The one header: the caller's own request id, optional, echoed back when acceptable.
      const headers = parameters.filter((p) => p.in === 'header');
      expect(headers).toEqual([
        expect.objectContaining({
          name: 'X-Request-Id',
          required: false,
          schema: { $ref: '#/components/schemas/RequestId' },
        }),
      ]);
      expect(parameters.every((p) => ['query', 'path', 'header'].includes(p.in))).toBe(true);
    }
    // Spot checks of types a client relies on.
    const listResponses = operationOf(readEndpoints.listResponses).parameters ?? [];
    const byName = Object.fromEntries(listResponses.map((p) => [p.name, p.schema]));
    expect(byName.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    expect(byName.offset).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(byName.mentioned).toMatchObject({ type: 'boolean' });
    expect(byName.from).toMatchObject({ type: 'string', format: 'date' });
    expect(byName.propertyId).toMatchObject({ type: 'string', format: 'uuid' });
    const status = (operationOf(readEndpoints.listTasks).parameters ?? []).find((p) => p.name === 'status');
    expect(status?.schema).toMatchObject({
      type: 'string',
      enum: ['backlog', 'todo', 'in_progress', 'done', 'canceled'],
    });
  });

  it('[READ-30] documents 200 (budget headers), 401, 429 (Retry-After), 500; 400 on lists, 404 on the detail', () => {
    const rateLimitHeaders = Object.keys(RATE_LIMIT_HEADERS).sort();
    const errorEnvelope = { $ref: '#/components/schemas/ErrorEnvelope' };
    const requestId = { $ref: '#/components/headers/X-Request-Id' };
    for (const endpoint of catalogue) {
      const { responses } = operationOf(endpoint);
      const expected =
        endpoint.shape === 'list'
          ? ['200', '304', '400', '401', '429', '500']
          : ['200', '304', '401', '404', '429', '500'];
      expect(Object.keys(responses).sort(), endpoint.operationId).toEqual(expected);

      const success = responses[200]!;
      expect(Object.keys(success.headers ?? {}).sort()).toEqual(
        [...rateLimitHeaders, 'ETag', ...(endpoint.shape === 'list' ? ['Link'] : []), 'X-Request-Id'].sort(),
      );
      for (const name of rateLimitHeaders) expect(success.headers?.[name]?.schema).toEqual({ type: 'integer' });
      // Every answer, whatever its status, documents the request id.
      for (const [status, response] of Object.entries(responses)) {
        expect(response.headers?.['X-Request-Id'], `${endpoint.operationId} ${status}`).toEqual(requestId);
      }
      const successSchema = success.content?.['application/json']?.schema;
      expect(successSchema).toMatchObject({
        type: 'object',
        required: endpoint.shape === 'list' ? ['data', 'total', 'has_more', 'next_cursor', 'prev_cursor'] : ['data'],
      });

      expect(responses['304']!.content).toBeUndefined();
      for (const status of expected.filter((s) => s !== '200' && s !== '304')) {
        const response = responses[status]!;
        expect(response.description.length, `${endpoint.operationId} ${status}`).toBeGreaterThan(0);
        expect(response.content?.['application/json']?.schema).toEqual(errorEnvelope);
      }
      expect(Object.keys(responses[429]!.headers ?? {}).sort()).toEqual(
        [...rateLimitHeaders, 'Retry-After', 'X-Request-Id'].sort(),
      );
      expect(responses[429]!.headers?.['Retry-After']?.schema).toEqual({ type: 'integer' });
      expect(Object.keys(responses[401]!.headers ?? {}).sort()).toEqual(['WWW-Authenticate', 'X-Request-Id']);
      for (const status of ['400', '404', '500']) {
        if (responses[status]) expect(Object.keys(responses[status].headers ?? {})).toEqual(['X-Request-Id']);
      }
    }
  });

  it('[READ-30] declares the bearer scheme and applies it to the document and every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const { operation } of allOperations()) expect(operation.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('the document describes the real answers', () => {
  const get = (path: string, key?: string) => {
    const req = request(harness.app).get(path);
    return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
  };

  it('[READ-30] every endpoint’s real 200 body validates against its documented response schema', async () => {
    const list = await get('/v1/responses?limit=1', world.keys.all);
    const responseId = list.body.data[0].id as string;
    for (const endpoint of catalogue) {
      const res = await get(concrete(endpoint.path, responseId), world.keys.all);
      expect(res.status, endpoint.operationId).toBe(200);
      const rows = endpoint.shape === 'list' ? res.body.data : [res.body.data];
      expect(rows.length, `${endpoint.operationId} returns rows to check`).toBeGreaterThan(0);
      expect(schemas.errorsOf(responseSchemaOf(endpoint, 200), res.body), endpoint.operationId).toEqual([]);
      for (const header of Object.keys(RATE_LIMIT_HEADERS)) {
        expect(res.headers[header.toLowerCase()], `${endpoint.operationId} ${header}`).toMatch(/^\d+$/);
      }
    }
  });

  it('[READ-30] the schemas are not vacuous: a body breaking them fails validation', async () => {
    const res = await get('/v1/tasks', world.keys.all);
    const validate = responseSchemaOf(readEndpoints.listTasks, 200);
    expect(schemas.errorsOf(validate, res.body)).toEqual([]);
    const broken = structuredClone(res.body);
    broken.data[0].status = 'archived';
    delete broken.data[0].title;
    expect(schemas.errorsOf(validate, broken)).toEqual(
      expect.arrayContaining([
        '/data/0/status must be equal to one of the allowed values',
        "/data/0 must have required property 'title'",
      ]),
    );
    expect(schemas.errorsOf(validate, { data: res.body.data })).toContain("/ must have required property 'total'");
  });

  it('[READ-30] real 400, 401, 404 and 429 bodies validate against ErrorEnvelope and their operation’s schema', async () => {
    const errorEnvelope = schemas.component('ErrorEnvelope');
    const invalid = await get('/v1/responses?limit=0', world.keys.all);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('INVALID_PARAM');
    expect(schemas.errorsOf(errorEnvelope, invalid.body)).toEqual([]);
    expect(schemas.errorsOf(responseSchemaOf(readEndpoints.listResponses, 400), invalid.body)).toEqual([]);

    for (const [key, code] of [
      [undefined, 'MISSING_AUTH'],
      [world.keys.revoked, 'INVALID_KEY'],
    ] as const) {
      const unauthorized = await get('/v1/tasks', key);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.body.error.code).toBe(code);
      expect(schemas.errorsOf(errorEnvelope, unauthorized.body)).toEqual([]);
      expect(schemas.errorsOf(responseSchemaOf(readEndpoints.listTasks, 401), unauthorized.body)).toEqual([]);
    }

    const missing = await get('/v1/responses/00000000-0000-4000-8000-000000000000', world.keys.all);
    expect(missing.status).toBe(404);
    expect(schemas.errorsOf(responseSchemaOf(readEndpoints.getResponse, 404), missing.body)).toEqual([]);
    expect(schemas.errorsOf(errorEnvelope, { error: { code: 'TEAPOT', message: 'x' } })).not.toEqual([]);
  });

  it('[READ-30] a real 429 carries the documented headers and an ErrorEnvelope body', async () => {
    const limited = createReadApiHarness({ now: TODAY, rateLimitPerMinute: 1 });
    try {
      await limited.redisReady();
      // A budget of one: the second request in a window is refused (a third covers a window edge).
      const send = () => request(limited.app).get('/v1/properties').set('Authorization', `Bearer ${world.keys.all}`);
      let res = await send();
      for (let attempt = 0; attempt < 2 && res.status !== 429; attempt++) res = await send();
      expect(res.status).toBe(429);
      const documented = operationOf(readEndpoints.listProperties).responses[429]!.headers ?? {};
      for (const header of Object.keys(documented)) {
        const value = res.headers[header.toLowerCase()];
        if (header === 'X-Request-Id') expect(schemas.errorsOf(schemas.component('RequestId'), value)).toEqual([]);
        else expect(value, header).toMatch(/^\d+$/);
      }
      expect(schemas.errorsOf(responseSchemaOf(readEndpoints.listProperties, 429), res.body)).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /docs', () => {
  it('[READ-30] answers an HTML reference page whose scripts and styles are all served by the app', async () => {
    const page = await request(harness.app).get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html = page.text;
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(assets.every((url) => url.startsWith('/'))).toBe(true);
    for (const url of assets) {
      const asset = await request(harness.app).get(url);
      expect(asset.status, url).toBe(200);
      expect(asset.headers['content-type'], url).toMatch(url.endsWith('.css') ? /^text\/css/ : /javascript/);
      expect(asset.text.length, url).toBeGreaterThan(0);
    }
    // The page boots Swagger UI on the document this app serves.
    const boot = assets.find((url) => !url.includes('swagger-ui'));
    expect((await request(harness.app).get(boot!)).text).toContain('"/openapi.json"');
  });
});

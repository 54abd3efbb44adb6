import type { Client } from 'openapi-fetch';
import type { paths } from './console-api';
import { consoleApi } from './console-client.ts';
import type { Me, PropertyDetail } from './console-types.ts';

// Never run, only type-checked by `pnpm typecheck` (the web tsconfig includes it): each
// `@ts-expect-error` below must meet an error, so if a route, field or parameter the UI relies on
// stopped being checked against the generated console-api.d.ts, typecheck fails here.

export async function renamedRoutesAndFieldsDoNotCompile(client: Client<paths>) {
  // @ts-expect-error: no such route in the catalogue
  await client.GET('/api/propertys/{id}', { params: { path: { id: 'x' } } });
  // @ts-expect-error: the route exists, not with this method
  await client.DELETE('/api/me');
  // @ts-expect-error: a path parameter under another name
  await client.GET('/api/properties/{id}', { params: { path: { propertyId: 'x' } } });
  // @ts-expect-error: a query parameter the operation does not read
  await client.GET('/api/properties/{id}/activity', { params: { path: { id: 'x' }, query: { since: '2026-01-01' } } });

  const me: Me = await consoleApi.getMe();
  // @ts-expect-error: a field the answer does not have
  void me.user.emailAddress;
  const detail = await consoleApi.getProperty('team', 'property');
  const property: PropertyDetail = detail.property;
  // @ts-expect-error: a field the answer does not have
  void property.brandTerm;

  // @ts-expect-error: a body field the operation refuses
  await consoleApi.createTeam({ name: 'Acme', slug: 'acme', colour: 'red' });
  // @ts-expect-error: a value outside the field's enum
  await consoleApi.createProperty('team', { name: 'Acme', domain: 'acme.test', plan: 'platinum' });
  // @ts-expect-error: a query parameter of the wrong type
  await consoleApi.listPropertyResponses('team', 'property', { mentioned: 'yes' });
}

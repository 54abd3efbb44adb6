import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { createApiRegistry, generateApiDocument } from '@vt/http-operations';
import { registerRequestId } from '../request-id.ts';
import { type ConsoleEndpoint, consoleEndpoints, registerConsoleEndpoint } from './endpoints.ts';
import { consoleErrorSchema } from './errors.ts';

/** The console API's OpenAPI 3.1 document, generated from the catalogue the console routes from. */
export function buildConsoleOpenApiDocument(endpoints: readonly ConsoleEndpoint[] = Object.values(consoleEndpoints)) {
  const registry = createApiRegistry({
    securitySchemes: {
      sessionCookie: {
        type: 'apiKey',
        in: 'cookie',
        name: 'vt_session',
        description:
          'The browser session: httpOnly, SameSite=Lax, Secure over TLS. Writes also need an Origin of the console.',
      },
      sessionBearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'The same session token for scripts: `Authorization: Bearer <token>` from sign-in. Needs no Origin.',
      },
    },
    schemas: { ConsoleError: consoleErrorSchema },
    register: [
      registerRequestId,
      ...endpoints.map((endpoint) => (into: OpenAPIRegistry) => registerConsoleEndpoint(into, endpoint)),
    ],
  });
  return generateApiDocument(registry, {
    info: {
      title: 'AI Visibility Tracking console API',
      version: '1.0.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: [
        'What signed-in people of a team do: accounts and sessions, teams and roles, properties, setup dialogs, activity and read API keys. The dashboard uses only this API.',
        '',
        '- Sign in with `POST /api/auth/sign-in`: the answer carries a session token, also set as the `vt_session` cookie. Scripts send `Authorization: Bearer <token>`.',
        '- CSRF: a write authenticated by the cookie must carry an `Origin` (or, failing that, `Referer`) of the console itself, else 403 `CSRF_REJECTED`. Bearer requests are not checked (browsers never add that header on their own). Bodies must be `application/json`.',
        '- The current team: the `X-Team-Id` header when present, else the team the session selected (`PUT /api/session/team`), else the person’s only team; with several teams and none selected, team routes answer 400 `TEAM_NOT_SELECTED`.',
        '- A team, property or key the caller cannot see answers 404 `NOT_FOUND`, never a hint that it exists; a member lacking the role gets 403 `FORBIDDEN`.',
        '- Errors are `{"error": {"code", "message", "details"?}}`; `details` lists `{path, message}` per field on a 400. A 401 carries `WWW-Authenticate`.',
        '- Every answer carries `X-Request-Id`: the one the request sent when it is 1 to 128 letters, digits or `- _ . : + / =`, else a UUID minted for it; the console’s log lines about the request carry the same id.',
      ].join('\n'),
    },
    tags: [
      { name: 'Accounts', description: 'Sign-up, sign-in, sessions.' },
      { name: 'Teams', description: 'The spec’s team endpoints (TEAM-1..5) and members.' },
      { name: 'Properties', description: 'Properties, setup dialogs, delivery logs and activity.' },
      { name: 'API keys', description: 'Keys for the read API (/v1).' },
    ],
  });
}

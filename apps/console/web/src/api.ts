import type { ConsoleAnswer } from '@vt/contracts/console';

// The console API from the browser: same origin, the session cookie, JSON both ways. An error
// answer becomes an ApiError carrying the API's own code, message and field details.

export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
  }
}

export async function api<T>(
  path: string,
  options: { method?: string; body?: unknown; teamId?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.teamId) headers['x-team-id'] = options.teamId;
  const res = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
  });
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = (json as { error?: { code?: string; message?: string; details?: FieldProblem[] } }).error ?? {};
    throw new ApiError(res.status, error.code ?? 'UNKNOWN', error.message ?? `HTTP ${res.status}`, error.details ?? []);
  }
  return json as T;
}

// Every answer's type is the console API's own schema output, so the UI cannot drift from it.
export type Me = ConsoleAnswer<'getMe'>;
export type Property = ConsoleAnswer<'listProperties'>['properties'][number];
export type PropertyDetail = ConsoleAnswer<'getProperty'>['property'];
export type TeamDetail = ConsoleAnswer<'getTeam'>;
export type Member = TeamDetail['members'][number];
export type CrawlSetup = ConsoleAnswer<'getCrawlSetup'>;
export type CrawlLog = ConsoleAnswer<'getCrawlLog'>;
export type Activity = ConsoleAnswer<'getActivity'>;
export type VisibilityOverTime = ConsoleAnswer<'getVisibilityOverTime'>;
export type PropertyResponses = ConsoleAnswer<'listPropertyResponses'>;
export type AnswerRow = PropertyResponses['data'][number];
export type ShareOfVoice = ConsoleAnswer<'getShareOfVoice'>;
export type PropertyTasks = ConsoleAnswer<'listPropertyTasks'>;
export type Role = Member['role'];
export type ApiKeys = ConsoleAnswer<'listApiKeys'>;
export type CreatedApiKey = ConsoleAnswer<'createApiKey'>;
export type SlugCheck = ConsoleAnswer<'checkSlug'>;

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

export interface Me {
  user: { id: string; email: string; name: string };
  teams: { id: string; name: string; slug: string; role: 'owner' | 'admin' | 'member' }[];
  currentTeamId: string | null;
}

export interface Property {
  id: string;
  name: string;
  domain: string;
  plan: string;
  subscriptionStatus: string;
}

export interface CrawlSetup {
  endpointUrl: string;
  token: string | null;
  status: string;
  ingestionEnabled: boolean;
  snippets: { id: string; label: string; code: string }[];
  notes: string[];
}

export interface CrawlLog {
  entries: {
    at: string;
    statusCode: number;
    outcome: string;
    linesReceived: number | null;
    linesMatched: number | null;
    reason: string | null;
    fix: string | null;
  }[];
}

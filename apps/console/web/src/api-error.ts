// How the console API's answers reach the pages: the success body, or an ApiError carrying the
// API's own code, message and field details (`{"error": {code, message, details?}}`).

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

/** What openapi-fetch resolves to: `data` on a 2xx, else `error` (the parsed body, or its text). */
interface ClientResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The 2xx body of a typed call, or the ApiError its error answer describes. */
export async function answer<T>(call: Promise<ClientResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiError(response.status, error);
  return data as T;
}

/**
 * A CSV export, read whole into a file the page can save, with the name from Content-Disposition.
 * A download cut before its end (the console cuts it when an export fails midway) rejects here
 * with a TypeError, never resolving with part of the file.
 */
export async function download(call: Promise<ClientResult<Blob>>): Promise<{ blob: Blob; filename: string }> {
  const blob = await answer(call);
  const disposition = (await call).response.headers.get('content-disposition') ?? '';
  return { blob, filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export.csv' };
}

/** A call answered 204: resolves once it succeeded. */
export async function done(call: Promise<ClientResult<unknown>>): Promise<undefined> {
  await answer(call);
  return undefined;
}

function apiError(status: number, body: unknown): ApiError {
  // A proxy's HTML page or an empty body has no envelope: the status speaks for it.
  const envelope = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
  const error = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as {
    code?: string;
    message?: string;
    details?: FieldProblem[];
  };
  return new ApiError(status, error.code ?? 'UNKNOWN', error.message ?? `HTTP ${status}`, error.details ?? []);
}

import type { Request, Response } from 'express';

/**
 * `Link: </v1/responses?limit=50&starting_after=…>; rel="next", <…ending_before=…>; rel="prev"`
 * (RFC 8288, as GitHub's API sends it): the request's own path and query with the paging swapped,
 * so the filters travel with it. A reference relative to the request, since an API does not know
 * the host and scheme its clients reach it by. No header when neither neighbour exists.
 */
export function setPageLinks(req: Request, res: Response, cursors: { next: string | null; prev: string | null }): void {
  const links: string[] = [];
  const withCursor = (name: 'starting_after' | 'ending_before', cursor: string) => {
    const url = new URL(req.originalUrl, 'http://api.invalid');
    for (const paging of ['offset', 'starting_after', 'ending_before']) url.searchParams.delete(paging);
    url.searchParams.set(name, cursor);
    return `${url.pathname}${url.search}`;
  };
  if (cursors.next) links.push(`<${withCursor('starting_after', cursors.next)}>; rel="next"`);
  if (cursors.prev) links.push(`<${withCursor('ending_before', cursors.prev)}>; rel="prev"`);
  if (links.length > 0) res.set('Link', links.join(', '));
}

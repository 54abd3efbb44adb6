import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer } from '../../web/src/api-error.ts';
import type { paths } from '../../web/src/console-api';
import { shownError, slugCheckText } from '../../web/src/plain-errors.ts';
import { createConsoleHarness } from '../testing/index.ts';

// The errors the web UI shows, from the real console API's answers: each a plain sentence without
// the API's vocabulary (codes, "details", "body", paths under /api), the API's own words kept for
// the "Technical details" toggle.

const h = createConsoleHarness();
let server: Server;
let api: ReturnType<typeof createClient<paths>>;
beforeAll(async () => {
  server = createServer(h.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = createClient<paths>({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

/** What the page shows for a call the API refuses. */
async function shown(call: Promise<{ data?: unknown; error?: unknown; response: Response }>) {
  return shownError(
    await answer(call).then(
      () => expect.unreachable('the call succeeded'),
      (err: unknown) => err,
    ),
  );
}

/** Words of the API that a marketer would need a glossary for. */
const JARGON = /[A-Z]{3,}_[A-Z]+|details|body|\/api\/|\bslug\b|HTTP|\bid\b/;

describe('errors in plain words', () => {
  it('names each refused field in words, with the code and field paths behind the toggle', async () => {
    const person = await h.signUp('plain');
    const auth = { headers: { authorization: `Bearer ${person.token}`, origin: 'https://console.example.test' } };
    const blank = await shown(api.POST('/api/teams', { ...auth, body: { name: '   ', slug: 'plain-team-x' } }));
    expect(blank.text).toBe('Please check the form. The name must not be blank.');
    expect(blank.text).not.toMatch(JARGON);
    expect(blank.technical).toBe(
      'INVALID_BODY (HTTP 400): The body is not valid; details names each field.\nname: must not be blank',
    );

    const several = await shown(
      api.POST('/api/auth/sign-up', { body: { email: 'not-an-email', password: 'short', name: 'A' } }),
    );
    expect(several.text).toBe(
      'Please check the form. The email is not a valid email address. The password must be at least 10 characters.',
    );
  });

  it('names an alert rule’s threshold and recipients in words, not by their place in the request', async () => {
    const owner = await h.signUp('plain-alerts');
    const outsider = await h.signUp('plain-outsider');
    const { teamId } = await h.teamOf(owner);
    const created = await h
      .as(owner.token, teamId)
      .post('/api/properties', { name: 'Alert Shop', domain: 'alert-shop.example', plan: 'growth' });
    const auth = {
      headers: { authorization: `Bearer ${owner.token}`, origin: 'https://console.example.test', 'x-team-id': teamId },
      params: { path: { id: created.body.property.id as string } },
    };
    const patch = (rule: object) =>
      shown(api.PATCH('/api/properties/{id}/alert-rules', { ...auth, body: { rules: [rule as never] } }));

    const threshold = await patch({ kind: 'crawler_hits_drop', threshold: 5 });
    expect(threshold.text).toBe('Please check the form. The alert threshold must be from 10 to 100 (percent).');
    expect(threshold.technical).toContain('rules.0.threshold');
    const stranger = await patch({ kind: 'crawl_rejecting', emailTo: 'chosen', emailUserIds: [outsider.user.id] });
    expect(stranger.text).toBe(
      'Please check the form. One of the members chosen to email is not a member of this team.',
    );
    const tooMany = await patch({
      kind: 'crawl_rejecting',
      emailTo: 'chosen',
      emailUserIds: Array.from({ length: 51 }, () => crypto.randomUUID()),
    });
    expect(tooMany.text).toBe('Please check the form. The list of members to email is too long (at most 50 entries).');
    for (const { text } of [threshold, stranger, tooMany]) expect(text).not.toMatch(JARGON);
  });

  it('says a taken URL name, a wrong password and a team one is not in without the API’s words', async () => {
    const owner = await h.signUp('plain-owner');
    const { teamId, slug } = await h.teamOf(owner);
    const auth = { headers: { authorization: `Bearer ${owner.token}` } };

    const taken = await shown(api.POST('/api/teams', { ...auth, body: { name: 'Again', slug } }));
    expect(taken.text).toBe('Another team already uses that URL name. Please choose a different one.');
    expect(taken.technical).toContain('/api/teams/check-slug');

    const wrong = await shown(
      api.POST('/api/auth/sign-in', { body: { email: owner.email, password: 'not it at all' } }),
    );
    expect(wrong.text).toBe('That email and password do not match an account. Check them and try again.');

    const stranger = await h.signUp('plain-stranger');
    const notMine = await shown(
      api.GET('/api/properties', { headers: { authorization: `Bearer ${stranger.token}`, 'x-team-id': teamId } }),
    );
    expect(notMine).toMatchObject({
      text: 'You are not a member of this team, or it does not exist.',
      notAMember: true,
    });

    const gone = await shown(
      api.GET('/api/properties/{id}', {
        ...auth,
        headers: { ...auth.headers, 'x-team-id': teamId },
        params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
      }),
    );
    expect(gone.text).toBe('This property could not be found. It may have been deleted, or the link may be wrong.');
    for (const error of [taken, wrong, notMine, gone]) expect(error.text).not.toMatch(JARGON);
  });

  it('says a body too large, a service that is down and no connection in words', async () => {
    const person = await h.signUp('plain-large');
    const { teamId } = await h.teamOf(person);
    const tooLarge = await shown(
      api.POST('/api/properties', {
        headers: { authorization: `Bearer ${person.token}`, 'x-team-id': teamId },
        body: { name: 'x'.repeat(2_000_000), domain: 'large.example', plan: 'free' },
      }),
    );
    expect(tooLarge.text).toBe('That is too much text to save at once. Please shorten it and try again.');
    expect(tooLarge.technical).toMatch(/^PAYLOAD_TOO_LARGE \(HTTP 413\)/);

    const down = shownError(
      await answer(Promise.resolve({ error: '', response: new Response('', { status: 503 }) })).catch(
        (e: unknown) => e,
      ),
    );
    expect(down.text).toBe('The service is not answering right now. Please try again in a minute.');
    expect(shownError(new TypeError('Failed to fetch')).text).toBe(
      'The service could not be reached. Check your internet connection and try again.',
    );
  });

  it('says why a URL name cannot be used, from the live check, without the word slug', async () => {
    const owner = await h.signUp('plain-slug');
    const { slug } = await h.teamOf(owner);
    const auth = { headers: { authorization: `Bearer ${owner.token}` } };
    const said = async (candidate: string) =>
      slugCheckText(
        await answer(api.GET('/api/teams/check-slug', { ...auth, params: { query: { slug: candidate } } })),
      );
    expect(await said('api')).toBe('This URL name is kept for the app’s own pages. Please choose another.');
    expect(await said('ab')).toBe('A URL name needs at least 3 characters.');
    expect(await said('Bad_Name')).toBe('A URL name may use only lower-case letters (a–z), digits and hyphens.');
    expect(await said('-edge')).toBe('A URL name may not start or end with a hyphen.');
    expect(await said(slug)).toBe('Another team already uses this URL name. Please choose another.');
    expect(await said('free-name-for-us')).toBe('free-name-for-us is available');
  });
});

import createClient from 'openapi-fetch';
import { answer, done, download } from './api-error.ts';
import type { operations, paths } from './console-api';
import type { ConsoleAnswer, ConsoleBody, ConsoleQuery } from './console-types.ts';

// The console API as typed operations, named by their operationId. Every path below is a key of
// the generated `paths` and every body and query is the generated one, so renaming a route or a
// field in the catalogue (and regenerating) fails `pnpm typecheck` here or in the page that reads it.
// Pages call these and never write a path.

// Same origin, the session cookie: the console serves this UI.
const client = createClient<paths>({ credentials: 'same-origin' });

/** The team a request acts on (X-Team-Id); none leaves it to the session's selection. */
const team = (teamId: string) => ({ headers: teamId ? { 'x-team-id': teamId } : {} });
const property = (teamId: string, id: string) => ({ ...team(teamId), params: { path: { id } } });

/** What every paged console list answers beside its rows. */
interface CursorPage {
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Every row of a paged list, its pages followed by `next_cursor` and put together in one answer
 * shaped like its first page. The screens that show a list whole (keys, invitations, the property
 * pickers) stay whole however long it grows; a team's lists fit one page of 100 but for the largest.
 */
async function wholeList<Field extends string, Page extends CursorPage & Record<Field, unknown[]>>(
  field: Field,
  read: (startingAfter: string | undefined) => Promise<Page>,
): Promise<Page> {
  const first = await read(undefined);
  const rows = [...first[field]];
  let page: Page = first;
  while (page.has_more && page.next_cursor) {
    page = await read(page.next_cursor);
    rows.push(...page[field]);
  }
  return { ...first, [field]: rows, has_more: false, next_cursor: null };
}

/** The query of a list's page after `startingAfter` (none: its first page). */
const after = (startingAfter: string | undefined) => ({
  params: { query: startingAfter ? { starting_after: startingAfter } : {} },
});

export const consoleApi = {
  signUp: (body: ConsoleBody<'signUp'>) => answer(client.POST('/api/auth/sign-up', { body })),
  signIn: (body: ConsoleBody<'signIn'>) => answer(client.POST('/api/auth/sign-in', { body })),
  signOut: () => done(client.POST('/api/auth/sign-out')),
  getMe: () => answer(client.GET('/api/me')),
  selectTeam: (body: ConsoleBody<'selectTeam'>) => answer(client.PUT('/api/session/team', { body })),

  createTeam: (body: ConsoleBody<'createTeam'>) => answer(client.POST('/api/teams', { body })),
  checkSlug: (query: ConsoleQuery<'checkSlug'>) => answer(client.GET('/api/teams/check-slug', { params: { query } })),
  getTeam: (teamId: string) => answer(client.GET('/api/team', team(teamId))),
  updateTeam: (teamId: string, body: ConsoleBody<'updateTeam'>) =>
    answer(client.PATCH('/api/team', { ...team(teamId), body })),
  changeRole: (teamId: string, body: ConsoleBody<'changeRole'>) =>
    answer(client.PUT('/api/team/role', { ...team(teamId), body })),
  removeMember: (teamId: string, userId: string) =>
    done(client.DELETE('/api/team/members/{userId}', { ...team(teamId), params: { path: { userId } } })),
  leaveTeam: (teamId: string) => done(client.POST('/api/team/leave', team(teamId))),
  listInvitations: (teamId: string) =>
    wholeList('invitations', (cursor) =>
      answer(client.GET('/api/team/invitations', { ...team(teamId), ...after(cursor) })),
    ),
  inviteMember: (teamId: string, body: ConsoleBody<'inviteMember'>) =>
    answer(client.POST('/api/team/invitations', { ...team(teamId), body })),
  resendInvitation: (teamId: string, id: string) =>
    answer(client.POST('/api/team/invitations/{id}/resend', property(teamId, id))),
  revokeInvitation: (teamId: string, id: string) =>
    answer(client.DELETE('/api/team/invitations/{id}', property(teamId, id))),
  // The token goes in a body, never in a URL a log could keep.
  getInvitation: (token: string) => answer(client.POST('/api/invitations/lookup', { body: { token } })),
  acceptInvitation: (token: string) => answer(client.POST('/api/invitations/accept', { body: { token } })),

  listProperties: (teamId: string) =>
    wholeList('properties', (cursor) => answer(client.GET('/api/properties', { ...team(teamId), ...after(cursor) }))),
  createProperty: (teamId: string, body: ConsoleBody<'createProperty'>) =>
    answer(client.POST('/api/properties', { ...team(teamId), body })),
  getProperty: (teamId: string, id: string) => answer(client.GET('/api/properties/{id}', property(teamId, id))),
  updateProperty: (teamId: string, id: string, body: ConsoleBody<'updateProperty'>) =>
    answer(client.PATCH('/api/properties/{id}', { ...property(teamId, id), body })),
  deleteProperty: (teamId: string, id: string) => done(client.DELETE('/api/properties/{id}', property(teamId, id))),
  addCompetitor: (teamId: string, id: string, body: ConsoleBody<'addCompetitor'>) =>
    answer(client.POST('/api/properties/{id}/competitors', { ...property(teamId, id), body })),
  removeCompetitor: (teamId: string, id: string, competitorId: string) =>
    done(
      client.DELETE('/api/properties/{id}/competitors/{competitorId}', {
        ...team(teamId),
        params: { path: { id, competitorId } },
      }),
    ),
  addPrompt: (teamId: string, id: string, body: ConsoleBody<'addPrompt'>) =>
    answer(client.POST('/api/properties/{id}/prompts', { ...property(teamId, id), body })),
  updatePrompt: (teamId: string, id: string, promptId: string, body: ConsoleBody<'updatePrompt'>) =>
    answer(
      client.PATCH('/api/properties/{id}/prompts/{promptId}', {
        ...team(teamId),
        params: { path: { id, promptId } },
        body,
      }),
    ),
  removePrompt: (teamId: string, id: string, promptId: string) =>
    done(
      client.DELETE('/api/properties/{id}/prompts/{promptId}', { ...team(teamId), params: { path: { id, promptId } } }),
    ),

  getCrawlSetup: (teamId: string, id: string) => answer(client.GET('/api/properties/{id}/crawl', property(teamId, id))),
  rotateCrawlToken: (teamId: string, id: string) =>
    answer(client.POST('/api/properties/{id}/crawl/rotate', property(teamId, id))),
  disconnectCrawl: (teamId: string, id: string) =>
    answer(client.POST('/api/properties/{id}/crawl/disconnect', property(teamId, id))),
  reconnectCrawl: (teamId: string, id: string) =>
    answer(client.POST('/api/properties/{id}/crawl/reconnect', property(teamId, id))),
  getCrawlLog: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/crawl/log', property(teamId, id))),
  getWebhookSetup: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/webhook', property(teamId, id))),
  // Only where the deployment allows it (WEBHOOK_SECRET_ROTATION=property; the setup's secretRotation says).
  rotateWebhookSecret: (teamId: string, id: string, body: ConsoleBody<'rotateWebhookSecret'>) =>
    answer(client.POST('/api/properties/{id}/webhook/rotate', { ...property(teamId, id), body })),
  getWebhookLog: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/webhook/log', property(teamId, id))),

  listAlertRules: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/alert-rules', property(teamId, id))),
  updateAlertRules: (teamId: string, id: string, body: ConsoleBody<'updateAlertRules'>) =>
    answer(client.PATCH('/api/properties/{id}/alert-rules', { ...property(teamId, id), body })),
  listAlertWebhooks: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/alert-webhooks', property(teamId, id))),
  createAlertWebhook: (teamId: string, id: string, body: ConsoleBody<'createAlertWebhook'>) =>
    answer(client.POST('/api/properties/{id}/alert-webhooks', { ...property(teamId, id), body })),
  updateAlertWebhook: (teamId: string, id: string, webhookId: string, body: ConsoleBody<'updateAlertWebhook'>) =>
    answer(
      client.PATCH('/api/properties/{id}/alert-webhooks/{webhookId}', {
        ...team(teamId),
        params: { path: { id, webhookId } },
        body,
      }),
    ),
  deleteAlertWebhook: (teamId: string, id: string, webhookId: string) =>
    done(
      client.DELETE('/api/properties/{id}/alert-webhooks/{webhookId}', {
        ...team(teamId),
        params: { path: { id, webhookId } },
      }),
    ),
  rotateAlertWebhookSecret: (teamId: string, id: string, webhookId: string) =>
    answer(
      client.POST('/api/properties/{id}/alert-webhooks/{webhookId}/rotate-secret', {
        ...team(teamId),
        params: { path: { id, webhookId } },
      }),
    ),
  sendAlertWebhookTest: (teamId: string, id: string, webhookId: string) =>
    answer(
      client.POST('/api/properties/{id}/alert-webhooks/{webhookId}/test', {
        ...team(teamId),
        params: { path: { id, webhookId } },
      }),
    ),
  getAlertWebhookLog: (teamId: string, id: string, webhookId: string) =>
    answer(
      client.GET('/api/properties/{id}/alert-webhooks/{webhookId}/log', {
        ...team(teamId),
        params: { path: { id, webhookId } },
      }),
    ),

  getWeeklyReportSubscription: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/weekly-report', property(teamId, id))),
  subscribeWeeklyReport: (teamId: string, id: string) =>
    answer(client.PUT('/api/properties/{id}/weekly-report', property(teamId, id))),
  unsubscribeWeeklyReport: (teamId: string, id: string) =>
    answer(client.DELETE('/api/properties/{id}/weekly-report', property(teamId, id))),
  previewWeeklyReport: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/weekly-report/preview', property(teamId, id))),
  unsubscribeWeeklyReportByLink: (token: string) =>
    answer(client.POST('/api/weekly-report/unsubscribe', { params: { query: { token } } })),

  getActivity: (teamId: string, id: string, query: ConsoleQuery<'getActivity'>) =>
    answer(client.GET('/api/properties/{id}/activity', { ...team(teamId), params: { path: { id }, query } })),
  getVisibilityOverTime: (teamId: string, id: string, query: ConsoleQuery<'getVisibilityOverTime'>) =>
    answer(client.GET('/api/properties/{id}/visibility', { ...team(teamId), params: { path: { id }, query } })),
  listPropertyResponses: (teamId: string, id: string, query: ConsoleQuery<'listPropertyResponses'>) =>
    answer(client.GET('/api/properties/{id}/responses', { ...team(teamId), params: { path: { id }, query } })),
  getShareOfVoice: (teamId: string, id: string, query: ConsoleQuery<'getShareOfVoice'>) =>
    answer(client.GET('/api/properties/{id}/share-of-voice', { ...team(teamId), params: { path: { id }, query } })),
  getCollection: (teamId: string, id: string) =>
    answer(client.GET('/api/properties/{id}/collection', property(teamId, id))),
  startCollection: (teamId: string, id: string) =>
    answer(client.POST('/api/properties/{id}/collection', property(teamId, id))),
  listPropertyTasks: (teamId: string, id: string, query: ConsoleQuery<'listPropertyTasks'>) =>
    answer(client.GET('/api/properties/{id}/tasks', { ...team(teamId), params: { path: { id }, query } })),
  getAnswerSources: (teamId: string, id: string, query: ConsoleQuery<'getAnswerSources'>) =>
    answer(client.GET('/api/properties/{id}/sources', { ...team(teamId), params: { path: { id }, query } })),
  getSourceGaps: (teamId: string, id: string, query: ConsoleQuery<'getSourceGaps'>) =>
    answer(client.GET('/api/properties/{id}/sources/gaps', { ...team(teamId), params: { path: { id }, query } })),
  getPromptMatrix: (teamId: string, id: string, query: ConsoleQuery<'getPromptMatrix'>) =>
    answer(client.GET('/api/properties/{id}/prompt-matrix', { ...team(teamId), params: { path: { id }, query } })),
  getAnswer: (teamId: string, id: string, responseId: string) =>
    answer(
      client.GET('/api/properties/{id}/responses/{responseId}', {
        ...team(teamId),
        params: { path: { id, responseId } },
      }),
    ),

  getOverview: (teamId: string, query: ConsoleQuery<'getOverview'>) =>
    answer(client.GET('/api/overview', { ...team(teamId), params: { query } })),
  getOnboarding: (teamId: string, id: string, query: ConsoleQuery<'getOnboarding'> = {}) =>
    answer(client.GET('/api/properties/{id}/onboarding', { ...team(teamId), params: { path: { id }, query } })),

  // CSV exports: read whole (`parseAs: 'blob'`) with the team's header, then saved by the page.
  exportAnswers: (teamId: string, id: string, query: ConsoleQuery<'exportAnswers'>) =>
    download(
      client.GET('/api/properties/{id}/exports/answers', {
        ...team(teamId),
        params: { path: { id }, query },
        parseAs: 'blob',
      }),
    ),
  exportCrawlerActivity: (teamId: string, id: string, query: ConsoleQuery<'exportCrawlerActivity'>) =>
    download(
      client.GET('/api/properties/{id}/exports/crawlers', {
        ...team(teamId),
        params: { path: { id }, query },
        parseAs: 'blob',
      }),
    ),
  exportAiReferrals: (teamId: string, id: string, query: ConsoleQuery<'exportAiReferrals'>) =>
    download(
      client.GET('/api/properties/{id}/exports/referrals', {
        ...team(teamId),
        params: { path: { id }, query },
        parseAs: 'blob',
      }),
    ),
  exportLeads: (teamId: string, id: string, query: ConsoleQuery<'exportLeads'>) =>
    download(
      client.GET('/api/properties/{id}/exports/leads', {
        ...team(teamId),
        params: { path: { id }, query },
        parseAs: 'blob',
      }),
    ),

  listApiKeys: (teamId: string) =>
    wholeList('keys', (cursor) => answer(client.GET('/api/keys', { ...team(teamId), ...after(cursor) }))),
  createApiKey: (teamId: string, body: ConsoleBody<'createApiKey'>) =>
    answer(client.POST('/api/keys', { ...team(teamId), body })),
  revokeApiKey: (teamId: string, id: string) => done(client.DELETE('/api/keys/{id}', property(teamId, id))),

  listTeamEmails: (teamId: string) => answer(client.GET('/api/team/emails', team(teamId))),
  sendTestEmail: (teamId: string) => answer(client.POST('/api/team/emails/test', team(teamId))),
  getCaughtEmail: (teamId: string, id: string) =>
    answer(client.GET('/api/team/emails/{id}/caught', property(teamId, id))),
} satisfies {
  // Each helper answers what its operation answers (undefined when it answers 204), so a helper
  // calling another operation's route does not compile.
  [Op in keyof operations]?: (...args: never[]) => Promise<ConsoleAnswer<Op> | undefined>;
};

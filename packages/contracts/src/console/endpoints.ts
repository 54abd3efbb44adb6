import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponseConfig } from '@vt/http-operations';
import { z } from 'zod';
import { requestIdParameter, requestIdResponseHeaders } from '../request-id.ts';
import { alertRulesSchema, updateAlertRulesBody } from './alert-rules.ts';
import {
  alertWebhookAnswerSchema,
  alertWebhookLogSchema,
  alertWebhooksSchema,
  alertWebhookTestSchema,
  createAlertWebhookBody,
  updateAlertWebhookBody,
} from './alert-webhooks.ts';
import {
  answerDetailSchema,
  answerSourcesQuery,
  answerSourcesSchema,
  promptMatrixQuery,
  promptMatrixSchema,
  sourceGapsSchema,
} from './answer-insights.ts';
import { collectionStatusSchema } from './collection.ts';
import { CONSOLE_ERROR_STATUS, type ConsoleErrorCode, consoleErrorSchema } from './errors.ts';
import { idempotencyKeyParameter } from './idempotency.ts';
import {
  acceptedInvitationSchema,
  INVITATION_LIMIT,
  INVITATION_TTL_DAYS,
  invitationAnswerSchema,
  invitationPreviewSchema,
  invitationsSchema,
  invitationTokenBody,
  inviteMemberBody,
} from './invitations.ts';
import {
  alertWebhookLogQuery,
  alertWebhooksQuery,
  apiKeysQuery,
  invitationsQuery,
  membersQuery,
  propertiesQuery,
  teamEmailsQuery,
} from './list-pages.ts';
import { caughtEmailSchema, queuedTestEmailSchema, TEST_EMAIL_LIMIT, teamEmailsSchema } from './outgoing-mail.ts';
import { onboardingQuery, onboardingSchema, overviewQuery, overviewSchema } from './overview.ts';
import {
  activityQuery,
  changeRoleBody,
  checkSlugQuery,
  createApiKeyBody,
  createCompetitorBody,
  createPromptBody,
  createPropertyBody,
  createTeamBody,
  exportQuery,
  propertyResponsesQuery,
  propertyTasksQuery,
  rotateWebhookSecretBody,
  selectTeamBody,
  shareOfVoiceQuery,
  signInBody,
  signUpBody,
  updatePromptBody,
  updatePropertyBody,
  updateTeamBody,
  visibilityOverTimeQuery,
} from './requests.ts';
import {
  activitySchema,
  apiKeyAnswerSchema,
  apiKeysSchema,
  authAnswerSchema,
  competitorAnswerSchema,
  crawlLogSchema,
  crawlSetupSchema,
  createdApiKeySchema,
  memberAnswerSchema,
  membersSchema,
  meSchema,
  promptAnswerSchema,
  propertiesSchema,
  propertyAnswerSchema,
  propertyResponsesSchema,
  propertyTasksSchema,
  shareOfVoiceSchema,
  slugCheckSchema,
  teamDetailSchema,
  visibilityOverTimeSchema,
  webhookLogSchema,
  webhookSetupSchema,
} from './resources.ts';
import {
  unsubscribedReportSchema,
  unsubscribeReportQuery,
  weeklyReportPreviewSchema,
  weeklyReportSubscriptionSchema,
} from './weekly-report.ts';

/**
 * Who may call an operation:
 * - `public`: anyone (signing up and in);
 * - `session`: a signed-in person, whatever their teams;
 * - `member`: any member of the current team;
 * - `admin`: an owner or admin of the current team (owner-only rules are checked inside).
 */
export type ConsoleAccess = 'public' | 'session' | 'member' | 'admin';
export type ConsoleMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One console operation: the console routes from it and the OpenAPI document is generated from
 * it, so the two cannot drift. Path parameters are `{name}` and always UUIDs.
 */
export interface ConsoleEndpoint {
  operationId: string;
  method: ConsoleMethod;
  path: `/api/${string}`;
  summary: string;
  description?: string;
  access: ConsoleAccess;
  body?: z.ZodType;
  query?: z.ZodObject;
  status: 200 | 201 | 204;
  /** Absent for a 204, and for an answer that `streams`. */
  response?: z.ZodType;
  /**
   * The media type of an answer written as it is produced (a CSV export), instead of one JSON
   * value: the handler answers a `StreamedAnswer`, and the document describes the body as text.
   */
  streams?: typeof CSV_MEDIA_TYPE;
  /** Codes this operation answers beyond those its access level and body imply. */
  errors?: ConsoleErrorCode[];
  /**
   * The top-level field of the answer that holds a secret shown only this once (an API key's):
   * a retry under the same Idempotency-Key is not given it again (409 SECRET_NOT_REPLAYED).
   */
  shownOnceField?: string;
}

/**
 * Whether a console operation takes an Idempotency-Key: every POST of a signed-in person (each
 * creates or changes something). The public ones (sign-up, sign-in, the unsubscribe link) have
 * nobody to hold a key for, and answer session tokens that must not be kept.
 */
export const takesIdempotencyKey = (e: Pick<ConsoleEndpoint, 'method' | 'access'>) =>
  e.method === 'post' && e.access !== 'public';

const endpoint = <E extends ConsoleEndpoint>(e: E) => e;

const secretsNote = 'Members get the same answer with the token, secret and key fields null.';

/** What every CSV export answers with. */
export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';

const csvExportNote = [
  "Inclusive UTC days: the last 30 ending today by default, at most 366 (400 INVALID_PARAM beyond). The answer is `text/csv; charset=utf-8`: a UTF-8 byte-order mark, a header row, CRLF line ends, RFC 4180 quoting; text cells starting with = + - @, a tab or a carriage return are prefixed with `'` so spreadsheets do not run them. `Content-Disposition` names the file after the property, the kind and the range.",
  'Rows are read and sent as the client reads them. An error once the first bytes are sent cannot change the status: the connection is cut before the end of the chunked body, so the download fails visibly instead of looking complete.',
].join('\n\n');

export const consoleEndpoints = {
  signUp: endpoint({
    operationId: 'signUp',
    method: 'post',
    path: '/api/auth/sign-up',
    summary: 'Create an account and sign in',
    description:
      'A password that is common (a list of ~49,000 breached ones, case and spaces ignored), one short pattern repeated, a run such as 1234567890, or contains the email is 400 INVALID_BODY with the reason at `password`. 409 EMAIL_TAKEN counts as a failed sign-in of the client’s address, and an address over that limit answers 429 with Retry-After here too.',
    access: 'public',
    body: signUpBody,
    status: 201,
    response: authAnswerSchema,
    errors: ['EMAIL_TAKEN', 'RATE_LIMIT_EXCEEDED'],
  }),
  signIn: endpoint({
    operationId: 'signIn',
    method: 'post',
    path: '/api/auth/sign-in',
    summary: 'Sign in',
    description:
      'An unknown email and a wrong password get the same 401 INVALID_CREDENTIALS. Failures are limited (Redis-shared, 429 with Retry-After): per email and client address, a wait that doubles with each failure past the first few; per address over all emails; per account over all addresses, past which only a browser that has signed in to the account before (its `vt_device` cookie) may try until the window ends or the password is reset.',
    access: 'public',
    body: signInBody,
    status: 200,
    response: authAnswerSchema,
    errors: ['INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
  }),
  signOut: endpoint({
    operationId: 'signOut',
    method: 'post',
    path: '/api/auth/sign-out',
    summary: 'Sign out: the session is revoked at once',
    access: 'session',
    status: 204,
  }),
  getMe: endpoint({
    operationId: 'getMe',
    method: 'get',
    path: '/api/me',
    summary: 'The signed-in person and their teams with roles',
    access: 'session',
    status: 200,
    response: meSchema,
  }),
  selectTeam: endpoint({
    operationId: 'selectTeam',
    method: 'put',
    path: '/api/session/team',
    summary: 'Select the team this session acts on',
    access: 'session',
    body: selectTeamBody,
    status: 200,
    response: meSchema,
    errors: ['NOT_FOUND'],
  }),
  createTeam: endpoint({
    operationId: 'createTeam',
    method: 'post',
    path: '/api/teams',
    summary: 'Create a team; the creator becomes its owner and the session selects it',
    access: 'session',
    body: createTeamBody,
    status: 201,
    response: teamDetailSchema,
    errors: ['SLUG_TAKEN'],
  }),
  checkSlug: endpoint({
    operationId: 'checkSlug',
    method: 'get',
    path: '/api/teams/check-slug',
    summary: 'Whether a team slug is available, and why not',
    access: 'session',
    query: checkSlugQuery,
    status: 200,
    response: slugCheckSchema,
  }),
  getTeam: endpoint({
    operationId: 'getTeam',
    method: 'get',
    path: '/api/team',
    summary: 'The current team: details, settings, branding, members and the caller’s role',
    access: 'member',
    status: 200,
    response: teamDetailSchema,
  }),
  updateTeam: endpoint({
    operationId: 'updateTeam',
    method: 'patch',
    path: '/api/team',
    summary: 'Update the current team’s name, slug, settings or branding',
    description: 'Fields left out keep their value; `settings` and `branding` are each replaced whole.',
    access: 'admin',
    body: updateTeamBody,
    status: 200,
    response: teamDetailSchema,
    errors: ['SLUG_TAKEN'],
  }),
  changeRole: endpoint({
    operationId: 'changeRole',
    method: 'put',
    path: '/api/team/role',
    summary: 'Change a member’s role',
    description:
      'Owners and admins change roles; only an owner grants or removes the owner role; the last owner cannot be demoted (409 LAST_OWNER).',
    access: 'admin',
    body: changeRoleBody,
    status: 200,
    response: memberAnswerSchema,
    errors: ['NOT_FOUND', 'LAST_OWNER'],
  }),
  listMembers: endpoint({
    operationId: 'listMembers',
    method: 'get',
    path: '/api/team/members',
    summary: 'The current team’s members with roles',
    access: 'member',
    query: membersQuery,
    status: 200,
    response: membersSchema,
    errors: ['INVALID_PARAM'],
  }),
  removeMember: endpoint({
    operationId: 'removeMember',
    method: 'delete',
    path: '/api/team/members/{userId}',
    summary: 'Remove a member from the current team',
    description: 'Only an owner removes an owner; the last owner cannot be removed (409 LAST_OWNER).',
    access: 'admin',
    status: 204,
    errors: ['NOT_FOUND', 'LAST_OWNER'],
  }),
  leaveTeam: endpoint({
    operationId: 'leaveTeam',
    method: 'post',
    path: '/api/team/leave',
    summary: 'Leave the current team',
    description: 'The last owner cannot leave (409 LAST_OWNER): make someone else owner first.',
    access: 'member',
    status: 204,
    errors: ['LAST_OWNER'],
  }),
  listInvitations: endpoint({
    operationId: 'listInvitations',
    method: 'get',
    path: '/api/team/invitations',
    summary: 'The current team’s open invitations (pending, and expired ones to resend)',
    description:
      'Owners and admins only: an invited address is not the team’s to show its members before that person says yes.',
    access: 'admin',
    query: invitationsQuery,
    status: 200,
    response: invitationsSchema,
    errors: ['INVALID_PARAM'],
  }),
  inviteMember: endpoint({
    operationId: 'inviteMember',
    method: 'post',
    path: '/api/team/invitations',
    summary: 'Invite a person by email, with a role',
    description: `Emails a link that signs them up or in and joins them; it works for ${INVITATION_TTL_DAYS} days. Only an owner may invite an owner. An address already in the team: 409 ALREADY_MEMBER. An address with an open invitation: that invitation is sent again with a new link (the old one stops working) and the role asked. At most ${INVITATION_LIMIT.perActor} sends per person and ${INVITATION_LIMIT.perTeam} per team an hour, resends included (429 RATE_LIMIT_EXCEEDED with Retry-After).`,
    access: 'admin',
    body: inviteMemberBody,
    status: 201,
    response: invitationAnswerSchema,
    errors: ['ALREADY_MEMBER', 'RATE_LIMIT_EXCEEDED'],
  }),
  resendInvitation: endpoint({
    operationId: 'resendInvitation',
    method: 'post',
    path: '/api/team/invitations/{id}/resend',
    summary: 'Send an invitation again, with a new link',
    description: `The old link stops working (only a hash of each link is kept, so the old one cannot be sent again), and the new one works for ${INVITATION_TTL_DAYS} days: an expired invitation is renewed this way. Counts toward the same hourly limit as inviting.`,
    access: 'admin',
    status: 200,
    response: invitationAnswerSchema,
    errors: ['NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
  }),
  revokeInvitation: endpoint({
    operationId: 'revokeInvitation',
    method: 'delete',
    path: '/api/team/invitations/{id}',
    summary: 'Revoke an invitation: its link stops working at once',
    description: 'Only an owner revokes an invitation to be an owner. An accepted or revoked one is 404 NOT_FOUND.',
    access: 'admin',
    status: 200,
    response: invitationAnswerSchema,
    errors: ['NOT_FOUND'],
  }),
  getInvitation: endpoint({
    operationId: 'getInvitation',
    method: 'post',
    path: '/api/invitations/lookup',
    summary: 'What an invitation link is for: the team, the role, the address, who sent it, its state',
    description:
      'The token travels in the body (POST), never in a URL a log or a Referer could keep. An unknown or malformed token is 404 NOT_FOUND.',
    access: 'public',
    body: invitationTokenBody,
    status: 200,
    response: invitationPreviewSchema,
    errors: ['NOT_FOUND'],
  }),
  acceptInvitation: endpoint({
    operationId: 'acceptInvitation',
    method: 'post',
    path: '/api/invitations/accept',
    summary: 'Join the team an invitation is for, with its role',
    description:
      'The signed-in account’s email must be the one invited (403 INVITATION_FOR_ANOTHER_EMAIL otherwise): the link proves only that its holder reads that mailbox. The session then acts on the team. Accepting again answers 200 with `joined: false`; a revoked or expired invitation is 409 INVITATION_REVOKED or INVITATION_EXPIRED; an unknown token 404 NOT_FOUND.',
    access: 'session',
    body: invitationTokenBody,
    status: 200,
    response: acceptedInvitationSchema,
    errors: ['NOT_FOUND', 'INVITATION_REVOKED', 'INVITATION_EXPIRED', 'INVITATION_FOR_ANOTHER_EMAIL'],
  }),
  listProperties: endpoint({
    operationId: 'listProperties',
    method: 'get',
    path: '/api/properties',
    summary: 'The current team’s properties, every plan',
    access: 'member',
    query: propertiesQuery,
    status: 200,
    response: propertiesSchema,
    errors: ['INVALID_PARAM'],
  }),
  createProperty: endpoint({
    operationId: 'createProperty',
    method: 'post',
    path: '/api/properties',
    summary: 'Create a property',
    access: 'admin',
    body: createPropertyBody,
    status: 201,
    response: propertyAnswerSchema,
  }),
  getProperty: endpoint({
    operationId: 'getProperty',
    method: 'get',
    path: '/api/properties/{id}',
    summary: 'A property with its competitors and prompts',
    access: 'member',
    status: 200,
    response: propertyAnswerSchema,
    errors: ['NOT_FOUND'],
  }),
  updateProperty: endpoint({
    operationId: 'updateProperty',
    method: 'patch',
    path: '/api/properties/{id}',
    summary: 'Rename a property, change its plan or its brand terms',
    access: 'admin',
    body: updatePropertyBody,
    status: 200,
    response: propertyAnswerSchema,
    errors: ['NOT_FOUND'],
  }),
  deleteProperty: endpoint({
    operationId: 'deleteProperty',
    method: 'delete',
    path: '/api/properties/{id}',
    summary: 'Delete a property and everything collected for it',
    access: 'admin',
    status: 204,
    errors: ['NOT_FOUND'],
  }),
  addCompetitor: endpoint({
    operationId: 'addCompetitor',
    method: 'post',
    path: '/api/properties/{id}/competitors',
    summary: 'Track a competitor',
    access: 'admin',
    body: createCompetitorBody,
    status: 201,
    response: competitorAnswerSchema,
    errors: ['NOT_FOUND', 'ALREADY_EXISTS'],
  }),
  removeCompetitor: endpoint({
    operationId: 'removeCompetitor',
    method: 'delete',
    path: '/api/properties/{id}/competitors/{competitorId}',
    summary: 'Stop tracking a competitor (its mentions go with it)',
    access: 'admin',
    status: 204,
    errors: ['NOT_FOUND'],
  }),
  addPrompt: endpoint({
    operationId: 'addPrompt',
    method: 'post',
    path: '/api/properties/{id}/prompts',
    summary: 'Add a prompt to ask the AI assistants',
    access: 'admin',
    body: createPromptBody,
    status: 201,
    response: promptAnswerSchema,
    errors: ['NOT_FOUND', 'ALREADY_EXISTS'],
  }),
  updatePrompt: endpoint({
    operationId: 'updatePrompt',
    method: 'patch',
    path: '/api/properties/{id}/prompts/{promptId}',
    summary: 'Pause or resume a prompt, or change its tags',
    description: 'A paused prompt keeps its collected answers and is not asked again until resumed.',
    access: 'admin',
    body: updatePromptBody,
    status: 200,
    response: promptAnswerSchema,
    errors: ['NOT_FOUND'],
  }),
  removePrompt: endpoint({
    operationId: 'removePrompt',
    method: 'delete',
    path: '/api/properties/{id}/prompts/{promptId}',
    summary: 'Delete a prompt and the answers collected for it',
    access: 'admin',
    status: 204,
    errors: ['NOT_FOUND'],
  }),
  getCrawlSetup: endpoint({
    operationId: 'getCrawlSetup',
    method: 'get',
    path: '/api/properties/{id}/crawl',
    summary: 'The crawl setup dialog: endpoint, token, status, sender snippets and each CDN or host’s setup',
    description: secretsNote,
    access: 'member',
    status: 200,
    response: crawlSetupSchema,
    errors: ['NOT_FOUND'],
  }),
  rotateCrawlToken: endpoint({
    operationId: 'rotateCrawlToken',
    method: 'post',
    path: '/api/properties/{id}/crawl/rotate',
    summary: 'Rotate the crawl token: the old one fails at once',
    access: 'admin',
    status: 200,
    response: crawlSetupSchema,
    errors: ['NOT_FOUND', 'NOT_CONFIGURED'],
  }),
  disconnectCrawl: endpoint({
    operationId: 'disconnectCrawl',
    method: 'post',
    path: '/api/properties/{id}/crawl/disconnect',
    summary: 'Switch crawl ingestion off: every batch is refused with 403 and logged',
    access: 'admin',
    status: 200,
    response: crawlSetupSchema,
    errors: ['NOT_FOUND'],
  }),
  reconnectCrawl: endpoint({
    operationId: 'reconnectCrawl',
    method: 'post',
    path: '/api/properties/{id}/crawl/reconnect',
    summary: 'Switch crawl ingestion back on; the status returns to Not verified',
    access: 'admin',
    status: 200,
    response: crawlSetupSchema,
    errors: ['NOT_FOUND'],
  }),
  getCrawlLog: endpoint({
    operationId: 'getCrawlLog',
    method: 'get',
    path: '/api/properties/{id}/crawl/log',
    summary: 'The 50 most recent crawl ingest attempts, newest first',
    access: 'member',
    status: 200,
    response: crawlLogSchema,
    errors: ['NOT_FOUND'],
  }),
  getWebhookSetup: endpoint({
    operationId: 'getWebhookSetup',
    method: 'get',
    path: '/api/properties/{id}/webhook',
    summary: 'The lead webhook setup dialog: URL, signing secret and status',
    description: secretsNote,
    access: 'member',
    status: 200,
    response: webhookSetupSchema,
    errors: ['NOT_FOUND'],
  }),
  rotateWebhookSecret: endpoint({
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/api/properties/{id}/webhook/rotate',
    summary: 'Rotate the property’s lead webhook signing secret, with an overlap in which both verify',
    description:
      'Only in a deployment with WEBHOOK_SECRET_ROTATION=property (`secretRotation` of getWebhookSetup); under the default, `deployment` (the spec: secrets rotate only deployment-wide), this path answers 404 NOT_FOUND as an unknown one does. A new secret becomes current (shown in this answer and in the dialog); the one it replaces keeps verifying for `overlapHours` (default 24), then is refused (401 invalid_signature). A rotation during an overlap ends the older secret at once. The ingest gateway takes a rotation up within its property cache (PROPERTY_CACHE_TTL_MS, 10 s by default). Other properties, and the deployment-wide key, are untouched.',
    access: 'admin',
    body: rotateWebhookSecretBody,
    status: 200,
    response: webhookSetupSchema,
    errors: ['NOT_FOUND', 'NOT_CONFIGURED'],
  }),
  getWebhookLog: endpoint({
    operationId: 'getWebhookLog',
    method: 'get',
    path: '/api/properties/{id}/webhook/log',
    summary: 'The 20 newest lead webhook attempts, newest first',
    access: 'member',
    status: 200,
    response: webhookLogSchema,
    errors: ['NOT_FOUND'],
  }),
  listAlertWebhooks: endpoint({
    operationId: 'listAlertWebhooks',
    method: 'get',
    path: '/api/properties/{id}/alert-webhooks',
    summary: 'Where the property’s alerts are posted: Slack-compatible and signed (Standard Webhooks) webhooks',
    description: 'Members get the same answer with each URL and signing secret null (the host is shown).',
    access: 'member',
    query: alertWebhooksQuery,
    status: 200,
    response: alertWebhooksSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  createAlertWebhook: endpoint({
    operationId: 'createAlertWebhook',
    method: 'post',
    path: '/api/properties/{id}/alert-webhooks',
    summary: 'Add a webhook the property’s alerts are posted to',
    description:
      'The URL must be https, hold no user name or password, and resolve to public addresses only (unless the deployment allows private targets); a refused URL answers 400 INVALID_BODY with the reason at `url`. At most 10 per property (409 LIMIT_REACHED). A standard webhook needs ALERT_WEBHOOK_SIGNING_KEY (503 NOT_CONFIGURED).',
    access: 'admin',
    body: createAlertWebhookBody,
    status: 201,
    response: alertWebhookAnswerSchema,
    errors: ['NOT_FOUND', 'LIMIT_REACHED', 'NOT_CONFIGURED'],
  }),
  updateAlertWebhook: endpoint({
    operationId: 'updateAlertWebhook',
    method: 'patch',
    path: '/api/properties/{id}/alert-webhooks/{webhookId}',
    summary: 'Change a webhook’s URL or description, or switch it off and on',
    description: 'A new URL is checked as when the webhook was added.',
    access: 'admin',
    body: updateAlertWebhookBody,
    status: 200,
    response: alertWebhookAnswerSchema,
    errors: ['NOT_FOUND'],
  }),
  deleteAlertWebhook: endpoint({
    operationId: 'deleteAlertWebhook',
    method: 'delete',
    path: '/api/properties/{id}/alert-webhooks/{webhookId}',
    summary: 'Remove a webhook, its pending deliveries and its log',
    access: 'admin',
    status: 204,
    errors: ['NOT_FOUND'],
  }),
  rotateAlertWebhookSecret: endpoint({
    operationId: 'rotateAlertWebhookSecret',
    method: 'post',
    path: '/api/properties/{id}/alert-webhooks/{webhookId}/rotate-secret',
    summary: 'Replace a standard webhook’s signing secret: events are signed with the new one at once',
    description: 'A Slack webhook has no secret (400 INVALID_PARAM): its URL is its secret.',
    access: 'admin',
    status: 200,
    response: alertWebhookAnswerSchema,
    errors: ['NOT_FOUND', 'NOT_CONFIGURED', 'INVALID_PARAM'],
  }),
  sendAlertWebhookTest: endpoint({
    operationId: 'sendAlertWebhookTest',
    method: 'post',
    path: '/api/properties/{id}/alert-webhooks/{webhookId}/test',
    summary: 'Send an `alert.test` event to a webhook, delivered and retried like any alert',
    description:
      'The delivery is queued: its attempts appear in the webhook’s log. A switched-off webhook answers 400 INVALID_PARAM.',
    access: 'admin',
    status: 200,
    response: alertWebhookTestSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getAlertWebhookLog: endpoint({
    operationId: 'getAlertWebhookLog',
    method: 'get',
    path: '/api/properties/{id}/alert-webhooks/{webhookId}/log',
    summary: 'A webhook’s delivery log: its attempts, newest first, a page at a time, and the deliveries still pending',
    access: 'member',
    query: alertWebhookLogQuery,
    status: 200,
    response: alertWebhookLogSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getWeeklyReportSubscription: endpoint({
    operationId: 'getWeeklyReportSubscription',
    method: 'get',
    path: '/api/properties/{id}/weekly-report',
    summary: 'Whether the caller receives the property’s weekly report',
    access: 'member',
    status: 200,
    response: weeklyReportSubscriptionSchema,
    errors: ['NOT_FOUND'],
  }),
  subscribeWeeklyReport: endpoint({
    operationId: 'subscribeWeeklyReport',
    method: 'put',
    path: '/api/properties/{id}/weekly-report',
    summary: 'Receive the property’s weekly report (every Monday from 08:00 team time)',
    description:
      'For the caller only: each member chooses for themself. Subscribing again changes nothing. The first report is the next one due after subscribing.',
    access: 'member',
    status: 200,
    response: weeklyReportSubscriptionSchema,
    errors: ['NOT_FOUND'],
  }),
  unsubscribeWeeklyReport: endpoint({
    operationId: 'unsubscribeWeeklyReport',
    method: 'delete',
    path: '/api/properties/{id}/weekly-report',
    summary: 'Stop receiving the property’s weekly report',
    access: 'member',
    status: 200,
    response: weeklyReportSubscriptionSchema,
    errors: ['NOT_FOUND'],
  }),
  previewWeeklyReport: endpoint({
    operationId: 'previewWeeklyReport',
    method: 'get',
    path: '/api/properties/{id}/weekly-report/preview',
    summary: 'This week’s weekly report as the caller gets it: subject, HTML and plain text',
    description:
      'The report sent this week (covering the last complete ISO week in the team’s time zone), built as the email is: for a subscriber it is the email to the byte, unsubscribe link included.',
    access: 'member',
    status: 200,
    response: weeklyReportPreviewSchema,
    errors: ['NOT_FOUND'],
  }),
  unsubscribeWeeklyReportByLink: endpoint({
    operationId: 'unsubscribeWeeklyReportByLink',
    method: 'post',
    path: '/api/weekly-report/unsubscribe',
    summary: 'The weekly report’s one-click unsubscribe (RFC 8058): no session, the token is the authority',
    description:
      'The `List-Unsubscribe` address of every weekly report (mail clients POST `List-Unsubscribe=One-Click` to it), and what the unsubscribe page calls. A token used a second time answers `unsubscribed: false`. A token this deployment did not sign answers 400 INVALID_PARAM; without REPORT_UNSUBSCRIBE_KEY, 503 NOT_CONFIGURED.',
    access: 'public',
    query: unsubscribeReportQuery,
    status: 200,
    response: unsubscribedReportSchema,
    errors: ['INVALID_PARAM', 'NOT_CONFIGURED'],
  }),
  listAlertRules: endpoint({
    operationId: 'listAlertRules',
    method: 'get',
    path: '/api/properties/{id}/alert-rules',
    summary: 'The property’s alert rules, each with its state, and the messages they sent lately',
    description:
      'Every kind is listed, switched off until someone switches it on. Evaluated every few minutes by the notifier; a condition must hold at two evaluations in a row before a rule fires or resolves.',
    access: 'member',
    status: 200,
    response: alertRulesSchema,
    errors: ['NOT_FOUND'],
  }),
  updateAlertRules: endpoint({
    operationId: 'updateAlertRules',
    method: 'patch',
    path: '/api/properties/{id}/alert-rules',
    summary: 'Switch alert rules on or off, set their thresholds and who hears them',
    description:
      'Each rule named by its kind; fields left out stay as they are. A threshold out of its range, a kind without one given a threshold, or an email recipient who is not a member of the team answers 400 INVALID_BODY naming the field. Switching a firing rule off clears its state without a message.',
    access: 'admin',
    body: updateAlertRulesBody,
    status: 200,
    response: alertRulesSchema,
    errors: ['NOT_FOUND'],
  }),
  getActivity: endpoint({
    operationId: 'getActivity',
    method: 'get',
    path: '/api/properties/{id}/activity',
    summary: 'AI crawler hits, top pages, AI-referred visits and leads for a day range',
    description: 'Inclusive UTC days; the last 30 ending today by default; at most 366 days.',
    access: 'member',
    query: activityQuery,
    status: 200,
    response: activitySchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getVisibilityOverTime: endpoint({
    operationId: 'getVisibilityOverTime',
    method: 'get',
    path: '/api/properties/{id}/visibility',
    summary: 'How often the AI platforms mention the brand, per day and platform',
    description: 'The points of /v1/visibility for one property, every one of the range (at most 366 days).',
    access: 'member',
    query: visibilityOverTimeQuery,
    status: 200,
    response: visibilityOverTimeSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  listPropertyResponses: endpoint({
    operationId: 'listPropertyResponses',
    method: 'get',
    path: '/api/properties/{id}/responses',
    summary: 'Collected AI answers with their verdicts, newest first',
    description: 'The rows of /v1/responses for one property, with the same filters and paging.',
    access: 'member',
    query: propertyResponsesQuery,
    status: 200,
    response: propertyResponsesSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getShareOfVoice: endpoint({
    operationId: 'getShareOfVoice',
    method: 'get',
    path: '/api/properties/{id}/share-of-voice',
    summary: 'Each competitor’s mentions and share of voice beside the brand’s',
    description: 'The rows of /v1/competitors for one property over the range (at most 366 days).',
    access: 'member',
    query: shareOfVoiceQuery,
    status: 200,
    response: shareOfVoiceSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getCollection: endpoint({
    operationId: 'getCollection',
    method: 'get',
    path: '/api/properties/{id}/collection',
    summary: 'Which AI platforms collect answers, when the next run is, and what the last one did',
    description:
      'What the answer collector last reported (the platforms it has a key for, never the key) and the property’s latest run on each platform.',
    access: 'member',
    status: 200,
    response: collectionStatusSchema,
    errors: ['NOT_FOUND'],
  }),
  startCollection: endpoint({
    operationId: 'startCollection',
    method: 'post',
    path: '/api/properties/{id}/collection',
    summary: 'Ask the property’s active prompts on every configured platform now',
    description:
      'Once per property per hour (429 RATE_LIMIT_EXCEEDED with Retry-After over it). Questions already answered today are not asked again. 503 NOT_CONFIGURED when no platform key is set; 409 NOTHING_TO_COLLECT for a Free plan, an inactive subscription or no active prompt.',
    access: 'admin',
    status: 200,
    response: collectionStatusSchema,
    errors: ['NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'NOT_CONFIGURED', 'NOTHING_TO_COLLECT'],
  }),
  listPropertyTasks: endpoint({
    operationId: 'listPropertyTasks',
    method: 'get',
    path: '/api/properties/{id}/tasks',
    summary: 'The property’s action-plan tasks',
    description: 'The rows of /v1/tasks for one property, with the same filter and paging.',
    access: 'member',
    query: propertyTasksQuery,
    status: 200,
    response: propertyTasksSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getOverview: endpoint({
    operationId: 'getOverview',
    method: 'get',
    path: '/api/overview',
    summary: 'The team’s home overview: each property’s figures and their trends, the team total, what changed',
    description:
      'Inclusive UTC days (30 ending today by default, at most 366), each figure beside the previous period of the same length. What changed compares the 7 days ending `to` with the 7 before.',
    access: 'member',
    query: overviewQuery,
    status: 200,
    response: overviewSchema,
    errors: ['INVALID_PARAM'],
  }),
  getOnboarding: endpoint({
    operationId: 'getOnboarding',
    method: 'get',
    path: '/api/properties/{id}/onboarding',
    summary: 'What of a property’s setup is done, and prompts and competitors to start from',
    description:
      'Suggestions are derived from what the property already has (name, domain, brand terms, prompt tags, competitors, the domains its answers cite); nothing is fetched.',
    access: 'member',
    query: onboardingQuery,
    status: 200,
    response: onboardingSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getAnswerSources: endpoint({
    operationId: 'getAnswerSources',
    method: 'get',
    path: '/api/properties/{id}/sources',
    summary: 'The domains and URLs AI answers cite most, and the property’s own pages among them',
    description: 'Over the range (at most 366 days), on one platform or all.',
    access: 'member',
    query: answerSourcesQuery,
    status: 200,
    response: answerSourcesSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getSourceGaps: endpoint({
    operationId: 'getSourceGaps',
    method: 'get',
    path: '/api/properties/{id}/sources/gaps',
    summary: 'Sources cited in answers naming a competitor and never in answers naming the brand, per platform',
    description: 'Over the range (at most 366 days), on one platform or all.',
    access: 'member',
    query: answerSourcesQuery,
    status: 200,
    response: sourceGapsSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getPromptMatrix: endpoint({
    operationId: 'getPromptMatrix',
    method: 'get',
    path: '/api/properties/{id}/prompt-matrix',
    summary: 'Each prompt’s latest verdict on each platform, with its trend',
    description:
      'The trend counts the days the brand was named in the last N UTC days (today included) and in the N before.',
    access: 'member',
    query: promptMatrixQuery,
    status: 200,
    response: promptMatrixSchema,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  getAnswer: endpoint({
    operationId: 'getAnswer',
    method: 'get',
    path: '/api/properties/{id}/responses/{responseId}',
    summary: 'One whole answer: its text with the names to highlight, verdict, competitors named and citations',
    access: 'member',
    status: 200,
    response: answerDetailSchema,
    errors: ['NOT_FOUND'],
  }),
  listApiKeys: endpoint({
    operationId: 'listApiKeys',
    method: 'get',
    path: '/api/keys',
    summary: 'The current team’s read API keys (never the keys themselves)',
    access: 'member',
    query: apiKeysQuery,
    status: 200,
    response: apiKeysSchema,
    errors: ['INVALID_PARAM'],
  }),
  createApiKey: endpoint({
    operationId: 'createApiKey',
    method: 'post',
    path: '/api/keys',
    summary: 'Create a read API key; the key is in this answer only',
    access: 'admin',
    body: createApiKeyBody,
    status: 201,
    response: createdApiKeySchema,
    shownOnceField: 'secret',
  }),
  revokeApiKey: endpoint({
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/api/keys/{id}',
    summary: 'Revoke a read API key (effective within the read API’s key cache lifetime)',
    access: 'admin',
    status: 200,
    response: apiKeyAnswerSchema,
    errors: ['NOT_FOUND'],
  }),
  listTeamEmails: endpoint({
    operationId: 'listTeamEmails',
    method: 'get',
    path: '/api/team/emails',
    summary: 'The current team’s outgoing email and how each was delivered',
    description:
      'Newest first: pending emails with their attempts, last error and next attempt (the SMTP server may be down: they wait and are retried), sent and failed ones. Never a body.',
    access: 'admin',
    query: teamEmailsQuery,
    status: 200,
    response: teamEmailsSchema,
    errors: ['INVALID_PARAM'],
  }),
  sendTestEmail: endpoint({
    operationId: 'sendTestEmail',
    method: 'post',
    path: '/api/team/emails/test',
    summary: 'Send a test email to yourself, to check the deployment’s SMTP server',
    description: `Queued at once and delivered by the notifier; watch it in listTeamEmails. At most ${TEST_EMAIL_LIMIT.perTeam} per team per hour (429 RATE_LIMIT_EXCEEDED with Retry-After over it).`,
    access: 'admin',
    status: 201,
    response: queuedTestEmailSchema,
    errors: ['RATE_LIMIT_EXCEEDED'],
  }),
  getCaughtEmail: endpoint({
    operationId: 'getCaughtEmail',
    method: 'get',
    path: '/api/team/emails/{id}/caught',
    summary: 'Development: the copy of a sent email the mail catcher received',
    description:
      'Only where the console is given MAIL_CATCHER_URL (`pnpm start`): the message as its embedded mail catcher received it. Elsewhere, and for an email not caught, 404 NOT_FOUND; 503 NOT_CONFIGURED when the catcher does not answer.',
    access: 'admin',
    status: 200,
    response: caughtEmailSchema,
    errors: ['NOT_FOUND', 'NOT_CONFIGURED'],
  }),
  exportAnswers: endpoint({
    operationId: 'exportAnswers',
    method: 'get',
    path: '/api/properties/{id}/exports/answers',
    summary: 'Every answer of a day range with its verdict, as CSV',
    description: `One row per answer: date, platform, prompt, brand mentioned and the term matched, rank among the brands named, brands named, first mention (character), sentiment and its word, competitors named, cited sources, the excerpt (not the whole answer) and the answer id.\n\n${csvExportNote}`,
    access: 'member',
    query: exportQuery,
    status: 200,
    streams: CSV_MEDIA_TYPE,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  exportCrawlerActivity: endpoint({
    operationId: 'exportCrawlerActivity',
    method: 'get',
    path: '/api/properties/{id}/exports/crawlers',
    summary: 'AI crawler hits per day and crawler, by verification, as CSV',
    description: `One row per UTC day and crawler: operator, category, whether it counts as AI for the property, hits, verified, unverified, unverifiable.\n\n${csvExportNote}`,
    access: 'member',
    query: exportQuery,
    status: 200,
    streams: CSV_MEDIA_TYPE,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  exportAiReferrals: endpoint({
    operationId: 'exportAiReferrals',
    method: 'get',
    path: '/api/properties/{id}/exports/referrals',
    summary: 'AI-referred visits per day, platform and landing path, as CSV',
    description: csvExportNote,
    access: 'member',
    query: exportQuery,
    status: 200,
    streams: CSV_MEDIA_TYPE,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
  exportLeads: endpoint({
    operationId: 'exportLeads',
    method: 'get',
    path: '/api/properties/{id}/exports/leads',
    summary: 'Every lead received in a day range with all its fields, as CSV (owners and admins)',
    description: `One row per lead: received at, its day, whether and to which AI platform it was attributed, contact, email, landing path, referrer, UTM source and medium, session id, event id, lead id. Leads hold personal data (names, emails): members see the recent-leads feed but cannot export (403 FORBIDDEN).\n\n${csvExportNote}`,
    access: 'admin',
    query: exportQuery,
    status: 200,
    streams: CSV_MEDIA_TYPE,
    errors: ['NOT_FOUND', 'INVALID_PARAM'],
  }),
} satisfies Record<string, ConsoleEndpoint>;

export type ConsoleEndpointId = keyof typeof consoleEndpoints;

/** `{id}` names in a path, in order. */
export const pathParameters = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

const ACCESS_NOTES: Record<ConsoleAccess, string> = {
  public: 'No session needed.',
  session: 'Any signed-in person.',
  member: 'Any member of the current team.',
  admin: 'Owners and admins of the current team.',
};

const errorResponse = (codes: ConsoleErrorCode[], headers?: ResponseConfig['headers']) =>
  errorResponseConfig(consoleErrorSchema, codes.join(', '), { ...requestIdResponseHeaders, ...headers });

/** The error codes an operation can answer, by status. */
function consoleErrorCodes(e: ConsoleEndpoint): Map<number, ConsoleErrorCode[]> {
  const codes = new Set<ConsoleErrorCode>(e.errors ?? []);
  const writes = e.method !== 'get';
  if (e.body) codes.add('INVALID_BODY').add('PAYLOAD_TOO_LARGE').add('UNSUPPORTED_MEDIA_TYPE');
  if (e.query) codes.add('INVALID_PARAM');
  if (writes) codes.add('CSRF_REJECTED');
  if (takesIdempotencyKey(e)) {
    codes.add('IDEMPOTENCY_KEY_INVALID').add('IDEMPOTENCY_KEY_IN_USE').add('IDEMPOTENCY_KEY_REUSED');
    if (e.shownOnceField) codes.add('SECRET_NOT_REPLAYED');
  }
  if (e.access !== 'public') codes.add('UNAUTHENTICATED');
  if (e.access === 'member' || e.access === 'admin') codes.add('TEAM_NOT_SELECTED').add('NOT_FOUND');
  if (e.access === 'admin') codes.add('FORBIDDEN');
  if (pathParameters(e.path).length) codes.add('NOT_FOUND');
  codes.add('INTERNAL_ERROR');
  const byStatus = new Map<number, ConsoleErrorCode[]>();
  for (const code of [...codes].filter((c) => c in CONSOLE_ERROR_STATUS).sort()) {
    const status = CONSOLE_ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

export function registerConsoleEndpoint(registry: OpenAPIRegistry, e: ConsoleEndpoint): void {
  const responses: Record<number, ResponseConfig> = {};
  responses[e.status] = e.streams
    ? {
        description: 'The CSV, streamed.',
        headers: {
          ...requestIdResponseHeaders,
          'Content-Disposition': {
            description: 'attachment; filename="<property>-<kind>-<from>-to-<to>.csv"',
            schema: { type: 'string' },
          },
        },
        content: { 'text/csv': { schema: z.string().openapi({ description: 'UTF-8 CSV with a header row.' }) } },
      }
    : e.response
      ? {
          description: 'Success.',
          headers: requestIdResponseHeaders,
          content: { 'application/json': { schema: e.response } },
        }
      : { description: 'Done; no body.', headers: requestIdResponseHeaders };
  for (const [status, codes] of consoleErrorCodes(e)) {
    responses[status] =
      status === 401
        ? errorResponse(codes, {
            'WWW-Authenticate': { description: 'Bearer realm="console"', schema: { type: 'string' } },
          })
        : status === 429
          ? errorResponse(codes, { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } })
          : errorResponse(codes);
  }
  const params = pathParameters(e.path);
  registry.registerPath({
    method: e.method,
    path: e.path,
    operationId: e.operationId,
    summary: e.summary,
    description: [e.description, ACCESS_NOTES[e.access]].filter(Boolean).join('\n\n'),
    tags: [tagOf(e.path)],
    security: e.access === 'public' ? [] : [{ sessionCookie: [] }, { sessionBearer: [] }],
    request: {
      headers: takesIdempotencyKey(e) ? [requestIdParameter, idempotencyKeyParameter] : [requestIdParameter],
      query: e.query,
      params: params.length
        ? z.object(Object.fromEntries(params.map((p) => [p, z.uuid().openapi({ description: `The ${p} (a UUID).` })])))
        : undefined,
      body: e.body ? { required: true, content: { 'application/json': { schema: e.body } } } : undefined,
    },
    responses,
  });
}

/** Operations are grouped in the document by their first path segment after /api. */
function tagOf(path: string): string {
  const segment = path.split('/')[2] ?? 'api';
  const tags: Record<string, string> = {
    auth: 'Accounts',
    me: 'Accounts',
    session: 'Accounts',
    teams: 'Teams',
    team: 'Teams',
    properties: 'Properties',
    keys: 'API keys',
    invitations: 'Teams',
    overview: 'Overview',
  };
  return tags[segment] ?? 'Console';
}

/** What an operation answers, as its schema outputs it: the web UI's types come from here. */
export type ConsoleAnswer<Id extends ConsoleEndpointId> = (typeof consoleEndpoints)[Id] extends {
  response: infer Schema extends z.ZodType;
}
  ? z.output<Schema>
  : never;

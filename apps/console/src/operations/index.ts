import { type ConsoleEndpointId, consoleEndpoints } from '@vt/contracts/console';
import { type ConsoleOperation, consoleOperation } from '../http/console-operation.ts';
import { getMeHandler } from './account/get-me.ts';
import { selectTeamHandler } from './account/select-team.ts';
import { signInHandler } from './account/sign-in.ts';
import { signOutHandler } from './account/sign-out.ts';
import { signUpHandler } from './account/sign-up.ts';
import { getActivityHandler } from './activity/get-activity.ts';
import { listAlertRulesHandler } from './alert-rules/list-alert-rules.ts';
import { updateAlertRulesHandler } from './alert-rules/update-alert-rules.ts';
import { createAlertWebhookHandler } from './alert-webhooks/create-alert-webhook.ts';
import { deleteAlertWebhookHandler } from './alert-webhooks/delete-alert-webhook.ts';
import { getAlertWebhookLogHandler } from './alert-webhooks/get-alert-webhook-log.ts';
import { listAlertWebhooksHandler } from './alert-webhooks/list-alert-webhooks.ts';
import { rotateAlertWebhookSecretHandler } from './alert-webhooks/rotate-alert-webhook-secret.ts';
import { sendAlertWebhookTestHandler } from './alert-webhooks/send-alert-webhook-test.ts';
import { updateAlertWebhookHandler } from './alert-webhooks/update-alert-webhook.ts';
import { getAnswerHandler } from './answer-insights/get-answer.ts';
import { getAnswerSourcesHandler } from './answer-insights/get-answer-sources.ts';
import { getPromptMatrixHandler } from './answer-insights/get-prompt-matrix.ts';
import { getSourceGapsHandler } from './answer-insights/get-source-gaps.ts';
import { getCollectionHandler } from './answers/get-collection.ts';
import { getShareOfVoiceHandler } from './answers/get-share-of-voice.ts';
import { getVisibilityOverTimeHandler } from './answers/get-visibility-over-time.ts';
import { listPropertyResponsesHandler } from './answers/list-property-responses.ts';
import { listPropertyTasksHandler } from './answers/list-property-tasks.ts';
import { startCollectionHandler } from './answers/start-collection.ts';
import { createApiKeyHandler } from './api-keys/create-api-key.ts';
import { listApiKeysHandler } from './api-keys/list-api-keys.ts';
import { revokeApiKeyHandler } from './api-keys/revoke-api-key.ts';
import type { ConsoleHandlerFactory } from './define-console-handler.ts';
import { exportAiReferralsHandler } from './exports/export-ai-referrals.ts';
import { exportAnswersHandler } from './exports/export-answers.ts';
import { exportCrawlerActivityHandler } from './exports/export-crawler-activity.ts';
import { exportLeadsHandler } from './exports/export-leads.ts';
import type { HandlerDeps } from './handler-deps.ts';
import { acceptInvitationHandler } from './invitations/accept-invitation.ts';
import { getInvitationHandler } from './invitations/get-invitation.ts';
import { inviteMemberHandler } from './invitations/invite-member.ts';
import { listInvitationsHandler } from './invitations/list-invitations.ts';
import { resendInvitationHandler } from './invitations/resend-invitation.ts';
import { revokeInvitationHandler } from './invitations/revoke-invitation.ts';
import { changeRoleHandler } from './members/change-role.ts';
import { leaveTeamHandler } from './members/leave-team.ts';
import { listMembersHandler } from './members/list-members.ts';
import { removeMemberHandler } from './members/remove-member.ts';
import { getCaughtEmailHandler } from './outgoing-mail/get-caught-email.ts';
import { listTeamEmailsHandler } from './outgoing-mail/list-team-emails.ts';
import { sendTestEmailHandler } from './outgoing-mail/send-test-email.ts';
import { getOnboardingHandler } from './overview/get-onboarding.ts';
import { getOverviewHandler } from './overview/get-overview.ts';
import { addCompetitorHandler } from './properties/add-competitor.ts';
import { addPromptHandler } from './properties/add-prompt.ts';
import { createPropertyHandler } from './properties/create-property.ts';
import { deletePropertyHandler } from './properties/delete-property.ts';
import { getPropertyHandler } from './properties/get-property.ts';
import { listPropertiesHandler } from './properties/list-properties.ts';
import { removeCompetitorHandler } from './properties/remove-competitor.ts';
import { removePromptHandler } from './properties/remove-prompt.ts';
import { updatePromptHandler } from './properties/update-prompt.ts';
import { updatePropertyHandler } from './properties/update-property.ts';
import { disconnectCrawlHandler } from './setup-dialogs/disconnect-crawl.ts';
import { getCrawlLogHandler } from './setup-dialogs/get-crawl-log.ts';
import { getCrawlSetupHandler } from './setup-dialogs/get-crawl-setup.ts';
import { getWebhookLogHandler } from './setup-dialogs/get-webhook-log.ts';
import { getWebhookSetupHandler } from './setup-dialogs/get-webhook-setup.ts';
import { reconnectCrawlHandler } from './setup-dialogs/reconnect-crawl.ts';
import { rotateCrawlTokenHandler } from './setup-dialogs/rotate-crawl-token.ts';
import { rotateWebhookSecretHandler } from './setup-dialogs/rotate-webhook-secret.ts';
import { checkSlugHandler } from './teams/check-slug.ts';
import { createTeamHandler } from './teams/create-team.ts';
import { getTeamHandler } from './teams/get-team.ts';
import { updateTeamHandler } from './teams/update-team.ts';
import { getWeeklyReportSubscriptionHandler } from './weekly-report/get-weekly-report-subscription.ts';
import { previewWeeklyReportHandler } from './weekly-report/preview-weekly-report.ts';
import { subscribeWeeklyReportHandler } from './weekly-report/subscribe-weekly-report.ts';
import { unsubscribeWeeklyReportHandler } from './weekly-report/unsubscribe-weekly-report.ts';
import { unsubscribeWeeklyReportByLinkHandler } from './weekly-report/unsubscribe-weekly-report-by-link.ts';

/**
 * One module per console operation, its test beside it. The type makes a catalogued operation
 * without a module, or a module without an operation, a compile error; each module's handler is
 * typed by its own operation's endpoint (`defineConsoleHandler`).
 */
export type ConsoleHandlerModules = { [Id in ConsoleEndpointId]: ConsoleHandlerFactory<Id> };

const consoleHandlerModules: ConsoleHandlerModules = {
  signUp: signUpHandler,
  signIn: signInHandler,
  signOut: signOutHandler,
  getMe: getMeHandler,
  selectTeam: selectTeamHandler,
  createTeam: createTeamHandler,
  checkSlug: checkSlugHandler,
  getTeam: getTeamHandler,
  updateTeam: updateTeamHandler,
  changeRole: changeRoleHandler,
  listMembers: listMembersHandler,
  removeMember: removeMemberHandler,
  leaveTeam: leaveTeamHandler,
  listInvitations: listInvitationsHandler,
  inviteMember: inviteMemberHandler,
  resendInvitation: resendInvitationHandler,
  revokeInvitation: revokeInvitationHandler,
  getInvitation: getInvitationHandler,
  acceptInvitation: acceptInvitationHandler,
  listProperties: listPropertiesHandler,
  createProperty: createPropertyHandler,
  getProperty: getPropertyHandler,
  updateProperty: updatePropertyHandler,
  deleteProperty: deletePropertyHandler,
  addCompetitor: addCompetitorHandler,
  removeCompetitor: removeCompetitorHandler,
  addPrompt: addPromptHandler,
  updatePrompt: updatePromptHandler,
  removePrompt: removePromptHandler,
  getCrawlSetup: getCrawlSetupHandler,
  rotateCrawlToken: rotateCrawlTokenHandler,
  disconnectCrawl: disconnectCrawlHandler,
  reconnectCrawl: reconnectCrawlHandler,
  getCrawlLog: getCrawlLogHandler,
  getWebhookSetup: getWebhookSetupHandler,
  rotateWebhookSecret: rotateWebhookSecretHandler,
  getWebhookLog: getWebhookLogHandler,
  listAlertWebhooks: listAlertWebhooksHandler,
  createAlertWebhook: createAlertWebhookHandler,
  updateAlertWebhook: updateAlertWebhookHandler,
  deleteAlertWebhook: deleteAlertWebhookHandler,
  rotateAlertWebhookSecret: rotateAlertWebhookSecretHandler,
  sendAlertWebhookTest: sendAlertWebhookTestHandler,
  getAlertWebhookLog: getAlertWebhookLogHandler,
  getWeeklyReportSubscription: getWeeklyReportSubscriptionHandler,
  subscribeWeeklyReport: subscribeWeeklyReportHandler,
  unsubscribeWeeklyReport: unsubscribeWeeklyReportHandler,
  previewWeeklyReport: previewWeeklyReportHandler,
  unsubscribeWeeklyReportByLink: unsubscribeWeeklyReportByLinkHandler,
  listAlertRules: listAlertRulesHandler,
  updateAlertRules: updateAlertRulesHandler,
  getActivity: getActivityHandler,
  getVisibilityOverTime: getVisibilityOverTimeHandler,
  listPropertyResponses: listPropertyResponsesHandler,
  getShareOfVoice: getShareOfVoiceHandler,
  getCollection: getCollectionHandler,
  startCollection: startCollectionHandler,
  listPropertyTasks: listPropertyTasksHandler,
  getOverview: getOverviewHandler,
  getOnboarding: getOnboardingHandler,
  getAnswerSources: getAnswerSourcesHandler,
  getSourceGaps: getSourceGapsHandler,
  getPromptMatrix: getPromptMatrixHandler,
  getAnswer: getAnswerHandler,
  listApiKeys: listApiKeysHandler,
  createApiKey: createApiKeyHandler,
  revokeApiKey: revokeApiKeyHandler,
  listTeamEmails: listTeamEmailsHandler,
  sendTestEmail: sendTestEmailHandler,
  getCaughtEmail: getCaughtEmailHandler,
  exportAnswers: exportAnswersHandler,
  exportCrawlerActivity: exportCrawlerActivityHandler,
  exportAiReferrals: exportAiReferralsHandler,
  exportLeads: exportLeadsHandler,
};

/**
 * The catalogued operations a deployment setting leaves out, so their paths answer 404 NOT_FOUND
 * exactly as a path the console never had: one property's webhook secret rotation exists only
 * under WEBHOOK_SECRET_ROTATION=property, the spec rotating secrets deployment-wide (LEAD-17).
 */
function switchedOff(deps: HandlerDeps): ReadonlySet<ConsoleEndpointId> {
  return new Set(deps.connection.webhookSecretRotation === 'property' ? [] : ['rotateWebhookSecret']);
}

/** Every catalogued operation with its handler, in the catalogue's order, but those the deployment switched off. */
export function consoleOperations(deps: HandlerDeps): ConsoleOperation[] {
  const bind = <Id extends ConsoleEndpointId>(id: Id) =>
    consoleOperation(consoleEndpoints[id], consoleHandlerModules[id](deps));
  const off = switchedOff(deps);
  return (Object.keys(consoleEndpoints) as ConsoleEndpointId[]).filter((id) => !off.has(id)).map(bind);
}

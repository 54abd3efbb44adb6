export { deriveAlertWebhookSecret } from './alert-webhook-secret.ts';
export {
  API_KEY_PREFIX,
  deriveApiKey,
  generateApiKey,
  hashApiKey,
  type IssuedApiKey,
  isWellFormedApiKey,
} from './api-key.ts';
export { constantTimeEqual } from './constant-time.ts';
export { deriveCrawlToken, deriveVercelDrainSecret, verifyCrawlToken } from './crawl-token.ts';
export { generateInvitationToken, hashInvitationToken, isWellFormedInvitationToken } from './invitation-token.ts';
export { nameBasedUuid } from './name-based-id.ts';
export {
  deriveReportUnsubscribeToken,
  REPORT_UNSUBSCRIBE_TOKEN_MAX,
  verifyReportUnsubscribeToken,
} from './report-unsubscribe-token.ts';
export {
  generateSessionToken,
  hashSessionToken,
  isWellFormedSessionToken,
} from './session-token.ts';
export {
  currentWebhookSecret,
  deriveLegacyWebhookSecret,
  deriveRotatedWebhookSecret,
  deriveWebhookSecret,
  generateWebhookSecretNonce,
  signWebhookPayload,
  verifyStandardWebhookSignature,
  verifyWebhookSignature,
  webhookSecretsOf,
} from './webhook-secret.ts';

// Alert webhooks: where a property's alerts are posted, the SSRF guard every URL passes (when saved
// and at every delivery), the deliveries and their log, and the delivery job's processor a worker
// app registers.
export { type DeliveryJobAttempt, type DeliveryOutcome, deliverWebhook, type WebhookDeliveryDeps } from './deliver.ts';
export { alertWebhookLog } from './delivery-log.ts';
export {
  type AlertWebhookSettings,
  type AlertWebhookView,
  alertWebhookAnswer,
  alertWebhookNotFound,
  alertWebhookSecret,
  createAlertWebhook,
  deleteAlertWebhook,
  findAlertWebhook,
  listAlertWebhooks,
  rotateAlertWebhookSecret,
  updateAlertWebhook,
} from './destinations.ts';
export { alertTestNotification, enqueueWebhookDeliveries, recordWebhookNotification } from './notifications.ts';
export { type PostErrorClass, type PostResult, postWebhook, RESPONSE_SNIPPET_MAX } from './post-webhook.ts';
export {
  DEFAULT_RETRY_SCHEDULE,
  parseRetryAfter,
  type RetrySchedule,
  retryDelayMs,
  statusVerdict,
} from './retry-schedule.ts';
export {
  DELIVERY_RETENTION_DAYS,
  SWEEP_EVERY_MS,
  type SweepResult,
  sweepWebhookDeliveries,
  webhookDeliverySweepTask,
} from './sweep.ts';
export {
  type AddressClass,
  checkUrlShape,
  checkWebhookUrl,
  classifyAddress,
  guardedLookup,
  type ResolvedAddress,
  type ResolveHost,
  systemResolveHost,
  type TargetPolicy,
  type TargetRefusal,
  TargetRefusedError,
  targetRefusalMessage,
  type UrlCheck,
} from './target-guard.ts';
export {
  standardEventBody,
  WEBHOOK_USER_AGENT,
  type WebhookFormat,
  type WebhookRequest,
  webhookRequest,
} from './webhook-request.ts';

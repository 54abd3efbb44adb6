export {
  ALERT_NOTIFICATION_LIMITS,
  ALERT_NOTIFICATION_TYPES,
  type AlertNotification,
  type AlertNotificationInput,
  type AlertNotificationType,
  alertNotificationSchema,
  alertNotificationTypeSchema,
} from './alert-notification.ts';
export {
  type AnswerLocation,
  canonicalLanguageTag,
  countryCodeSchema,
  languageTagSchema,
  locationOfPrompt,
} from './answer-location.ts';
export { READ_API_AUTH_CHALLENGES } from './auth-challenge.ts';
export { COUNTRY_CODES } from './country-codes.ts';
export {
  CRAWL_EVENT_CAPS,
  type CrawlEvent,
  type CrawlEventField,
  type CrawlVerification,
  crawlEventLineSchema,
  crawlEventSchema,
  type KeptCrawlEvent,
  keptCrawlEventSchema,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from './crawl-event.ts';
export {
  AKAMAI_FIELDS,
  CLOUDFRONT_REALTIME_FIELDS,
  CLOUDFRONT_SETUP_FIELDS,
  CRAWL_PROVIDER_IDS,
  CRAWL_PROVIDER_NAMES,
  CRAWL_PROVIDER_TITLES,
  type CrawlProviderId,
  FASTLY_LOG_FORMAT,
  isCrawlProviderId,
  LOGPUSH_EXTRA_FIELDS,
  LOGPUSH_FIELDS,
} from './crawl-providers.ts';
export {
  API_ERROR_STATUS,
  type ApiErrorCode,
  type ErrorEnvelope,
  errorEnvelopeSchema,
} from './errors.ts';
export {
  type FieldSuggestion,
  LEAD_WEBHOOK_LIMITS,
  type Lead,
  type LeadField,
  type LeadResult,
  leadSchema,
} from './lead.ts';
export * from './list-cursor.ts';
export {
  type ApiContact,
  buildOpenApiDocument,
  DEFAULT_API_CONTACT,
  type OpenApiDocumentOptions,
} from './openapi-document.ts';
export {
  type Deprecation,
  defineReadEndpoint,
  RATE_LIMIT_HEADERS,
  READ_API_TAGS,
  type ReadApiTag,
  type ReadEndpoint,
  type ReadEndpointId,
  type ReadQueryOf,
  readEndpoints,
} from './read-endpoints.ts';
export * from './read-params.ts';
export {
  isAcceptableRequestId,
  REQUEST_ID_HEADER,
  requestIdSchema,
} from './request-id.ts';
export * from './resources.ts';

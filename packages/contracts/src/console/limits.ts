// The console's input limits, as plain numbers and patterns: the zod schemas in fields.ts and
// requests.ts are built from them, and the web UI's forms read the same constants for their
// maxLength, minLength and pattern. No runtime imports, so the UI bundles these lines and nothing else.

/** A person's, team's, property's, competitor's or key's name; a brand term; a prompt tag. */
export const NAME_MAX = 200;
export const EMAIL_MAX = 320;
export const PASSWORD_MIN = 10;
/** argon2 hashes any length; the cap keeps a hostile megabyte password from costing anything extra. */
export const PASSWORD_MAX = 256;
/** Any password is accepted at sign-in (the rules apply when one is set), up to this. */
export const SIGN_IN_PASSWORD_MAX = 1024;
export const SLUG_MIN = 3;
export const SLUG_MAX = 48;
/**
 * A slug's characters and edges (lower-case letters, digits, inner hyphens) as an HTML `pattern`,
 * which must match the whole value; the API's slugProblem is the rule, this is the form's early hint.
 */
export const SLUG_PATTERN = '[a-z0-9]([a-z0-9\\-]*[a-z0-9])?';
export const DOMAIN_INPUT_MAX = 2048;
export const URL_MAX = 2048;
export const PROMPT_TEXT_MAX = 2000;
/** Brand terms, competitor terms, prompt tags per list. */
export const TERMS_MAX = 50;
export const API_KEY_PROPERTIES_MAX = 500;
/** The category a person types to fill the onboarding prompt templates. */
export const ONBOARDING_CATEGORY_MAX = 60;
/** Alert webhook destinations per property. */
export const ALERT_WEBHOOKS_PER_PROPERTY = 10;
/** An alert webhook's description, a note for people. */
export const ALERT_WEBHOOK_DESCRIPTION_MAX = 200;
/** Attempts the delivery log of one alert webhook shows, newest first. */
export const ALERT_WEBHOOK_LOG_MAX = 50;
/** The kinds of alert rule a property has, in the order the console lists them. */
export const ALERT_RULE_KINDS = [
  'crawl_nothing_arriving',
  'crawl_rejecting',
  'webhook_rejecting',
  'crawler_hits_drop',
  'visibility_drop',
  'share_of_voice_drop',
  'new_competitor',
] as const;
/**
 * The alert rules with a threshold: its unit, the range a person may set, and the default. A drop
 * smaller than the minimum is noise week over week; the maximum is the whole scale.
 */
export const ALERT_THRESHOLDS = {
  crawler_hits_drop: { unit: 'percent', min: 10, max: 100, default: 50 },
  visibility_drop: { unit: 'points', min: 1, max: 100, default: 10 },
  share_of_voice_drop: { unit: 'points', min: 1, max: 100, default: 10 },
} as const;
/** Members one alert rule may name as its email recipients. */
export const ALERT_RECIPIENTS_MAX = 50;
/** Recent alert messages the console lists per property. */
export const ALERT_NOTIFICATIONS_SHOWN = 20;

import { SLUG_MAX, SLUG_MIN } from '@vt/contracts/console-limits';
import { ApiError, type FieldProblem } from './api-error.ts';
import type { SlugCheck } from './console-types.ts';

// The API's errors in words a marketer reads without a glossary. The API's code, message and
// field details are written for developers ("details names each field", PAYLOAD_TOO_LARGE); the
// page shows the sentence below and keeps the API's own words behind a "Technical details" toggle.

/** An error as a page shows it: the plain sentence, and the API's own words for the toggle. */
export interface ShownError {
  text: string;
  /** The code, status, message and field details as the API gave them; absent for non-API errors. */
  technical?: string;
  /** The team in the URL is not one of the person's (or does not exist): the page is a dead end. */
  notAMember?: true;
}

/** Codes whose sentence does not depend on the API's message. */
const BY_CODE: Record<string, string> = {
  UNAUTHENTICATED: 'You are signed out. Please sign in again.',
  INVALID_CREDENTIALS: 'That email and password do not match an account. Check them and try again.',
  RATE_LIMIT_EXCEEDED: 'Too many tries in a short time. Please wait a few minutes, then try again.',
  CSRF_REJECTED: 'The page could not confirm this request came from you. Reload the page and try again.',
  TEAM_NOT_SELECTED: 'Choose a team first, in the Team menu at the top of the page.',
  USER_NOT_FOUND: 'Nobody has an account with that email yet. Ask them to create one, then add them.',
  SLUG_TAKEN: 'Another team already uses that URL name. Please choose a different one.',
  EMAIL_TAKEN: 'An account with this email already exists. Sign in instead.',
  PAYLOAD_TOO_LARGE: 'That is too much text to save at once. Please shorten it and try again.',
  NOT_CONFIGURED:
    'This part of the service is not set up on this installation yet. Ask the person who runs it to finish the setup.',
};

/** Codes whose API message is already a sentence for people (role rules, duplicates). */
const MESSAGE_IS_PLAIN = new Set(['FORBIDDEN', 'LAST_OWNER', 'ALREADY_MEMBER', 'ALREADY_EXISTS', 'LIMIT_REACHED']);

const SOMETHING_WRONG =
  'Something went wrong on our side. Please try again; if it keeps happening, tell your administrator.';
const NOT_ANSWERING = 'The service is not answering right now. Please try again in a minute.';
const OFFLINE = 'The service could not be reached. Check your internet connection and try again.';

/** What the forms call the fields the API names by path. */
const FIELD_LABELS: Record<string, string> = {
  name: 'The name',
  slug: 'The URL name',
  domain: 'The domain',
  email: 'The email',
  password: 'The password',
  text: 'The prompt',
  tags: 'The tags',
  terms: 'The terms',
  brandTerms: 'The brand terms',
  plan: 'The plan',
  role: 'The role',
  access: 'The access',
  propertyIds: 'The choice of properties',
  from: 'The start date',
  to: 'The end date',
  'settings.timeZone': 'The time zone',
  'settings.weekStartsOn': 'The first day of the week',
  'settings.defaultDayRange': 'The default day range',
  'branding.displayName': 'The display name',
  'branding.logoUrl': 'The logo address',
  'branding.accentColor': 'The accent colour',
  url: 'The webhook URL',
  format: 'The format',
  description: 'The description',
  // The alert rules' form saves one rule at a time: its index in the request says nothing to a person.
  'rules.N.threshold': 'The alert threshold',
  'rules.N.emailUserIds': 'The list of members to email',
  'rules.N.emailUserIds.N': 'One of the members chosen to email',
};

function fieldLabel(path: string): string {
  // A list item (`brandTerms.2`) is its list's field.
  const withoutIndex = path.replace(/\.\d+$/, '');
  // A field of a list's item (`rules.0.threshold`) is named once for every item.
  const anyIndex = path.replace(/\.\d+(?=\.|$)/g, '.N');
  return (
    FIELD_LABELS[path] ??
    FIELD_LABELS[anyIndex] ??
    FIELD_LABELS[withoutIndex] ??
    (path ? `The field “${path}”` : 'The form')
  );
}

/** zod's default messages, in words; the API's own messages ("must not be blank") pass unchanged. */
function plainProblem(message: string): string {
  const atMost = /^Too big: expected \w+ to have <=?(\d+) (characters|items)/.exec(message);
  if (atMost) return `is too long (at most ${atMost[1]} ${atMost[2] === 'items' ? 'entries' : 'characters'})`;
  const atLeast = /^Too small: expected \w+ to have >=?(\d+) (characters|items)/.exec(message);
  if (atLeast) return `is too short (at least ${atLeast[1]} ${atLeast[2] === 'items' ? 'entries' : 'characters'})`;
  if (/received undefined/.test(message)) return 'is missing';
  if (message === 'unknown field') return 'is not one this form sends';
  if (/^Invalid email/.test(message)) return 'is not a valid email address';
  if (/^Invalid option/.test(message)) return 'is not one of the choices';
  if (/^Invalid/.test(message)) return 'is not valid';
  return message;
}

function fieldSentence(problem: FieldProblem): string {
  return `${fieldLabel(problem.path)} ${plainProblem(problem.message)}.`;
}

/** "No property with that id in this team." as what was not found, in words. */
function notFoundText(message: string): string {
  if (/^No team with/.test(message)) return NOT_A_MEMBER;
  if (/^No member of this team/.test(message)) return 'That person is not a member of this team any more.';
  const what = /^No (property|competitor|prompt|key|API key|alert webhook) with/.exec(message)?.[1];
  return what
    ? `This ${what} could not be found. It may have been deleted, or the link may be wrong.`
    : 'That could not be found. It may have been deleted, or the link may be wrong.';
}

/** Said for a team the person is not in, and for one that does not exist: which, is not told. */
export const NOT_A_MEMBER = 'You are not a member of this team, or it does not exist.';

/** The sentence a person reads for an error of the console API (or of reaching it). */
export function plainText(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof TypeError ? OFFLINE : SOMETHING_WRONG;
  if (err.code === 'INVALID_BODY' || err.code === 'INVALID_PARAM') {
    if (err.details.length === 0) return 'Something in the form is not valid. Please check it and try again.';
    return [`Please check the form. ${fieldSentence(err.details[0] as FieldProblem)}`]
      .concat(err.details.slice(1).map(fieldSentence))
      .join(' ');
  }
  if (MESSAGE_IS_PLAIN.has(err.code)) return err.message;
  if (err.code === 'NOT_FOUND') return notFoundText(err.message);
  const byCode = BY_CODE[err.code];
  if (byCode) return byCode;
  if (err.status === 502 || err.status === 503 || err.status === 504) return NOT_ANSWERING;
  return SOMETHING_WRONG;
}

/** A weekly report's unsubscribe link the API refused: there is no form to check on that page. */
export const BAD_UNSUBSCRIBE_LINK =
  'This unsubscribe link is not complete or was changed. Open the link from the email again, whole; or sign in and stop the report on the property’s Settings page.';

/** What the unsubscribe page says when the click failed. */
export function unsubscribeErrorText(err: unknown): string {
  return err instanceof ApiError && err.code === 'INVALID_PARAM' ? BAD_UNSUBSCRIBE_LINK : plainText(err);
}

/** The API's own words for the details toggle: code, status, message and each field it names. */
export function technicalText(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return err === undefined || err === null ? undefined : String(err);
  return [
    `${err.code} (HTTP ${err.status}): ${err.message}`,
    ...err.details.map((d) => `${d.path || '(body)'}: ${d.message}`),
  ].join('\n');
}

/** An error as the pages show it. */
export function shownError(err: unknown): ShownError {
  const shown: ShownError = { text: plainText(err) };
  const technical = technicalText(err);
  if (technical !== undefined) shown.technical = technical;
  if (isTeamNotFound(err)) shown.notAMember = true;
  return shown;
}

/** The API answers a team the person is not in exactly as one that does not exist. */
const isTeamNotFound = (err: unknown) =>
  err instanceof ApiError && err.code === 'NOT_FOUND' && /^No team with/.test(err.message);

/** Why a URL name (a team's slug) cannot be used, as the live check under the field says it. */
export function slugCheckText(check: SlugCheck): string {
  if (check.available) return `${check.slug} is available`;
  switch (check.reason) {
    case 'too_short':
      return `A URL name needs at least ${SLUG_MIN} characters.`;
    case 'too_long':
      return `A URL name can have at most ${SLUG_MAX} characters.`;
    case 'invalid_characters':
      return 'A URL name may use only lower-case letters (a–z), digits and hyphens.';
    case 'hyphen_at_edge':
      return 'A URL name may not start or end with a hyphen.';
    case 'reserved':
      return 'This URL name is kept for the app’s own pages. Please choose another.';
    case 'taken':
      return 'Another team already uses this URL name. Please choose another.';
    default:
      return check.message ?? 'This URL name cannot be used. Please choose another.';
  }
}

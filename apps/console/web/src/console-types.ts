import type { components, operations } from './console-api';

// The console API's types for the pages, all from console-api.d.ts (generated from the catalogue),
// so a renamed or retyped field fails `pnpm typecheck` wherever the UI reads it.

type Schemas = components['schemas'];
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** A CSV export as the page holds it: the file, and the name the console gave it. */
export interface CsvDownload {
  blob: Blob;
  filename: string;
}

/** A success's body: JSON as its schema, a CSV export as a file to save. */
type BodyOf<R> = R extends { content: { 'text/csv': unknown } } ? CsvDownload : JsonOf<R>;

/** What an operation answers on success (200 or 201). */
export type ConsoleAnswer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: infer Ok }
    ? BodyOf<Ok>
    : R extends { 201: infer Created }
      ? BodyOf<Created>
      : undefined
  : never;

/** The JSON body an operation takes. */
export type ConsoleBody<Op extends keyof operations> = JsonOf<NonNullable<operations[Op]['requestBody']>>;

/** The query parameters an operation reads. */
export type ConsoleQuery<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type Me = Schemas['Me'];
export type Property = Schemas['ConsoleProperty'];
export type PropertyDetail = Schemas['PropertyDetail'];
export type TeamDetail = Schemas['TeamDetail'];
export type Member = Schemas['Member'];
export type Role = Member['role'];
export type Invitation = Schemas['Invitation'];
export type InvitationPreview = Schemas['InvitationPreview']['invitation'];
export type Plan = ConsoleBody<'createProperty'>['plan'] & string;
export type ApiKeyAccess = ConsoleBody<'createApiKey'>['access'] & string;
export type CrawlSetup = Schemas['CrawlSetup'];
export type CrawlLog = Schemas['CrawlDeliveryLog'];
export type WebhookSetup = Schemas['WebhookSetup'];
export type WebhookLog = Schemas['WebhookDeliveryLog'];
export type AlertRules = Schemas['AlertRules'];
export type AlertRule = Schemas['AlertRule'];
export type AlertRuleKind = Schemas['AlertRuleKind'];
export type AlertWebhooks = Schemas['AlertWebhooks'];
export type AlertWebhook = Schemas['AlertWebhook'];
export type AlertWebhookFormat = Schemas['AlertWebhookFormat'];
export type AlertWebhookLog = Schemas['AlertWebhookLog'];
export type Activity = Schemas['Activity'];
export type VisibilityOverTime = Schemas['VisibilityOverTime'];
export type PropertyResponses = Schemas['PropertyResponses'];
export type AnswerRow = PropertyResponses['data'][number];
export type ShareOfVoice = Schemas['ShareOfVoice'];
export type PropertyTasks = Schemas['PropertyTasks'];
export type CollectionStatus = Schemas['CollectionStatus'];
export type AnswerSources = Schemas['AnswerSources'];
export type SourceGaps = Schemas['SourceGaps'];
export type PromptMatrix = Schemas['PromptMatrix'];
export type AnswerDetail = Schemas['AnswerDetail']['answer'];
export type ApiKeys = Schemas['ApiKeys'];
export type ApiKey = ApiKeys['keys'][number];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type SlugCheck = Schemas['SlugCheck'];
export type TeamEmails = Schemas['TeamEmails'];
export type TeamEmail = TeamEmails['emails'][number];
export type CaughtEmail = Schemas['CaughtEmail'];
export type TeamSettings = Schemas['TeamSettings'];
export type Overview = Schemas['Overview'];
export type OverviewFigures = Schemas['OverviewFigures'];
export type OnboardingChecklist = Schemas['OnboardingChecklist'];
export type Onboarding = Schemas['Onboarding'];

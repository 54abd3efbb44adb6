export const QUEUE_NAMES = {
  crawlBatch: 'crawl-batch',
  lead: 'lead',
  answerSchedule: 'answer-schedule',
  /** One queue per AI platform: `answers-chatgpt`, `answers-claude`, … */
  answersPrefix: 'answers-',
  answerRejudge: 'answer-rejudge',
  email: 'email',
  emailSweep: 'email-sweep',
  webhookDelivery: 'webhook-delivery',
  weeklyReports: 'weekly-reports',
  webhookDeliverySweep: 'webhook-delivery-sweep',
  alertEvaluation: 'alert-evaluation',
} as const;

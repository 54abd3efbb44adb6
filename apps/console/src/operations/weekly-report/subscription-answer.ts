import type { ReportSubscriptionState } from '@vt/weekly-report';

export const subscriptionAnswer = (state: ReportSubscriptionState) => ({
  subscribed: state.subscribed,
  since: state.since?.toISOString() ?? null,
});

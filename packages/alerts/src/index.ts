// Alert rules (issue 29): a property's rules and their state, what each watches, the state
// machine that sends one message per change of state, the messages, and the evaluation the
// notifier runs exactly once.
export { type AlertMetrics, createAlertMetrics } from './alert-metrics.ts';
export { listAlertRules, updateAlertRules } from './alert-rules.ts';
export {
  alertWeeks,
  MIN_CRAWLER_HITS,
  NEW_COMPETITOR_DAYS,
  NEW_COMPETITOR_LOOKBACK_DAYS,
  type NewCompetitor,
  newCompetitors,
  type Observation,
  observeProperty,
} from './conditions.ts';
export { type AlertEvaluationDeps, evaluateAlerts, evaluateProperty, type SentAlert } from './evaluate.ts';
export { type AlertMessage, type AlertMessageInput, alertMessage, duration } from './messages.ts';
export { ALERT_NOTIFICATIONS_KEPT_DAYS, pruneAlertNotifications } from './prune.ts';
export {
  type AlertStatus,
  type AlertTransition,
  initialRuleState,
  nextRuleState,
  REMINDER_EVERY_MS,
  type RuleState,
} from './rule-state.ts';

// An alert rule's state machine, pure: what one evaluation does to a rule's state, given whether
// its condition holds. Tested on its own with a clock in numbers.
//
// No storms: a status changes only once the other status has been seen at two evaluations at
// least `holdMs` apart (the notifier passes half its evaluation interval, so two ticks in a row).
// A condition that comes and goes between two ticks (a crawl batch refused, then accepted)
// changes nothing and sends nothing, and a replayed evaluation a moment later cannot confirm a
// change on its own. The cost is one interval of delay, which no alert here is worse for.

export type AlertStatus = 'ok' | 'firing';
export type AlertTransition = 'firing' | 'reminder' | 'resolved';

export interface RuleState {
  status: AlertStatus;
  statusSince: Date | null;
  pendingSince: Date | null;
  /** How many times the rule fired: the sequence its messages are keyed by. */
  episode: number;
  reminders: number;
  lastNotifiedAt: Date | null;
  lastReminderAt: Date | null;
}

/** While a rule stays firing, at most one reminder in this long. */
export const REMINDER_EVERY_MS = 24 * 3600 * 1000;

export const initialRuleState = (): RuleState => ({
  status: 'ok',
  statusSince: null,
  pendingSince: null,
  episode: 0,
  reminders: 0,
  lastNotifiedAt: null,
  lastReminderAt: null,
});

/**
 * One evaluation: the rule's next state and the message it sends, if any. ok→firing sends
 * "firing" (a new episode), firing held sends a reminder once a day after the last message,
 * firing→ok sends "resolved". `statusSince` is when the new status was first seen, not when it
 * was confirmed: that is when the problem started (or ended).
 */
export function nextRuleState(
  state: RuleState,
  holds: boolean,
  now: Date,
  holdMs: number,
): { state: RuleState; transition: AlertTransition | null } {
  const seen: AlertStatus = holds ? 'firing' : 'ok';
  if (seen === state.status) {
    const settled = { ...state, pendingSince: null };
    const last = state.lastNotifiedAt ?? state.statusSince;
    if (state.status === 'firing' && last && now.getTime() - last.getTime() >= REMINDER_EVERY_MS) {
      return {
        state: { ...settled, reminders: state.reminders + 1, lastReminderAt: now, lastNotifiedAt: now },
        transition: 'reminder',
      };
    }
    return { state: settled, transition: null };
  }
  const since = state.pendingSince ?? now;
  if (now.getTime() - since.getTime() < holdMs) return { state: { ...state, pendingSince: since }, transition: null };
  if (seen === 'firing') {
    return {
      state: {
        status: 'firing',
        statusSince: since,
        pendingSince: null,
        episode: state.episode + 1,
        reminders: 0,
        lastNotifiedAt: now,
        lastReminderAt: null,
      },
      transition: 'firing',
    };
  }
  return {
    state: { ...state, status: 'ok', statusSince: since, pendingSince: null, lastNotifiedAt: now },
    transition: 'resolved',
  };
}

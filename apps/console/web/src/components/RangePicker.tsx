import { type FormEvent, useId } from 'react';
import { addDays, utcToday } from '../range.ts';

const PRESETS = [7, 30, 90] as const;

/** The day range of a view: presets ending today, or two dates; both land in the URL. */
export function RangePicker(props: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}) {
  const id = useId();
  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const from = String(fields.get('from'));
    const to = String(fields.get('to'));
    if (from && to && from <= to) props.onChange({ from, to });
  }
  return (
    <form className="range" onSubmit={apply} aria-label="Day range" key={`${props.from}/${props.to}`}>
      {PRESETS.map((days) => {
        const from = addDays(utcToday(), 1 - days);
        const active = props.to === utcToday() && props.from === from;
        return (
          <button
            key={days}
            type="button"
            className={active ? 'preset active' : 'preset'}
            aria-pressed={active}
            onClick={() => props.onChange({ from, to: utcToday() })}
          >
            {days} days
          </button>
        );
      })}
      <label htmlFor={`${id}-from`}>From</label>
      <input id={`${id}-from`} name="from" type="date" defaultValue={props.from} max={utcToday()} required />
      <label htmlFor={`${id}-to`}>to</label>
      <input id={`${id}-to`} name="to" type="date" defaultValue={props.to} max={utcToday()} required />
      <button type="submit" className="secondary">
        Apply
      </button>
      <span className="hint">UTC days</span>
    </form>
  );
}

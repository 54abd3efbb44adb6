import { type KeyboardEvent, type ReactNode, useRef } from 'react';

export interface TabItem {
  id: string;
  label: string;
  /** Rendered only while the tab is selected. */
  panel: () => ReactNode;
}

/**
 * Tabs as the ARIA pattern has them: a tablist whose selected tab alone is in the Tab order, the
 * arrow keys (and Home, End) moving to and selecting the previous or next tab, each tab naming
 * the tabpanel it controls. The selection is the caller's (a route's query, say).
 */
export function Tabs(props: {
  /** What the tabs choose between, for screen readers. */
  label: string;
  /** Prefixes the tabs' and panels' element ids (unique on the page). */
  idPrefix: string;
  items: TabItem[];
  selected: string;
  onSelect(id: string): void;
}) {
  const { items, idPrefix } = props;
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const selected = items.some((item) => item.id === props.selected) ? props.selected : (items[0]?.id ?? '');

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // From the focused tab, not the selected one: a key pressed before the last selection has
    // rendered still moves on from where the focus is.
    const focused = items.findIndex((item) => buttons.current.get(item.id) === event.target);
    const at = focused >= 0 ? focused : items.findIndex((item) => item.id === selected);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? items.length - 1
              : null;
    const item = next === null ? undefined : items[next];
    if (!item) return;
    event.preventDefault();
    props.onSelect(item.id);
    buttons.current.get(item.id)?.focus();
  }

  return (
    <>
      <div role="tablist" aria-label={props.label} className="tablist" onKeyDown={onKeyDown}>
        {items.map((item) => (
          <button
            key={item.id}
            ref={(button) => {
              if (button) buttons.current.set(item.id, button);
              else buttons.current.delete(item.id);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${item.id}`}
            aria-selected={item.id === selected}
            aria-controls={`${idPrefix}-panel-${item.id}`}
            tabIndex={item.id === selected ? 0 : -1}
            onClick={() => props.onSelect(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items.map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`${idPrefix}-panel-${item.id}`}
          aria-labelledby={`${idPrefix}-tab-${item.id}`}
          hidden={item.id !== selected}
          className="tabpanel"
        >
          {item.id === selected && item.panel()}
        </div>
      ))}
    </>
  );
}

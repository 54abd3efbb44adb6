import { type RefObject, useEffect } from 'react';

// Tables and code blocks wider than the screen scroll inside themselves rather than widen the
// page. One that scrolls with nothing focusable inside cannot be scrolled from the keyboard
// (WCAG 2.1.1; axe's scrollable-region-focusable), so while it scrolls it gets a Tab stop of its
// own. Done here for every page, not by each table, so a new table on any page is covered too.

const SCROLLERS = '.table-scroll, table, pre';
/** Marks the Tab stops this added, so it removes only its own. */
const MARK = 'data-scroll-stop';

function update(root: HTMLElement) {
  for (const el of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls && !el.hasAttribute('tabindex')) {
      el.tabIndex = 0;
      el.setAttribute(MARK, '');
    } else if (!scrolls && el.hasAttribute(MARK)) {
      el.removeAttribute('tabindex');
      el.removeAttribute(MARK);
    }
  }
}

/** Keeps every region under `ref` that scrolls sideways reachable with Tab. */
export function useFocusableScrollRegions(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const run = () => update(root);
    run();
    // A resize (a phone turned, a details opened) or new content (data loaded) may start or end a scroll.
    const resize = new ResizeObserver(run);
    resize.observe(root);
    const mutation = new MutationObserver(run);
    mutation.observe(root, { childList: true, subtree: true, characterData: true });
    return () => {
      resize.disconnect();
      mutation.disconnect();
    };
  }, [ref]);
}

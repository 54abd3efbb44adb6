import { useEffect } from 'react';

// Every page names itself in the browser tab and to screen readers: the page, then what it
// belongs to (a property, a team), then the app, e.g. "Activity · Flow Shop · AI Visibility".

export const APP_NAME = 'AI Visibility';

/** The document title from the most specific part to the app's name; empty parts are skipped. */
export function documentTitle(...parts: (string | null | undefined)[]): string {
  return [...parts.filter((part): part is string => Boolean(part)), APP_NAME].join(' · ');
}

/** Sets the document title while the page is shown. */
export function useDocumentTitle(...parts: (string | null | undefined)[]): void {
  const title = documentTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

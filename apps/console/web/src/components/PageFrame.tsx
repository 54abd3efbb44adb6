import { type ReactNode, useRef } from 'react';
import { APP_NAME, useDocumentTitle } from '../document-title.ts';
import { useFocusableScrollRegions } from '../scroll-regions.ts';

/** The first thing Tab reaches on every page: a jump past the header to the page's content. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to main content
    </a>
  );
}

/** The landmark every page's content sits in; the skip link's target; its wide tables reachable by keyboard. */
export function Main({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  useFocusableScrollRegions(ref);
  return (
    // tabIndex -1: the skip link moves the focus here, not only the scroll position.
    <main id="main" ref={ref} tabIndex={-1} className={className}>
      {children}
    </main>
  );
}

/**
 * The frame of a page without the team header (sign-in, sign-up, a new team): the skip link,
 * a header with the app's name, the page in a narrow <main>, and the document title.
 */
export function PlainPage({ title, header, children }: { title: string; header?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <>
      <SkipLink />
      {header ?? (
        <header>
          <strong>{APP_NAME}</strong>
        </header>
      )}
      <Main className="narrow">{children}</Main>
    </>
  );
}

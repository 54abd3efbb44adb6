import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { CopyButton } from '../components/CopyButton.tsx';
import { Main, SkipLink } from '../components/PageFrame.tsx';
import { PropertySetup } from '../components/SetupChecklist.tsx';
import { canManage, ErrorLine, type ErrorShown } from '../console-data.tsx';
import type { CrawlSetup, Me } from '../console-types.ts';
import { useDocumentTitle } from '../document-title.ts';
import { formatWhen } from '../team-time.ts';
import { Header } from './Header.tsx';
import { NotAMemberPage } from './NotAMemberPage.tsx';

const PROPERTY_TABS = [
  ['activity', 'Activity'],
  ['answers', 'AI answers'],
  ['prompts', 'Prompts × platforms'],
  ['sources', 'Sources'],
  ['settings', 'Brand and prompts'],
  ['crawl', 'Crawl setup'],
  ['webhook', 'Lead webhook'],
] as const;

/**
 * The frame of every signed-in view: the skip link, the header, the title (also the document's),
 * the error line. A property's views also get its name and their tabs; the others a way back to
 * the team's properties. A team the person is not in gets a page that says so instead.
 */
export function ViewPage(props: {
  me: Me | null;
  teamId: string;
  title: string;
  error: ErrorShown;
  back?: boolean;
  property?: { id: string; name: string; domain: string } | null;
  /** The property's setup checklist tells the page when it added a prompt or a competitor. */
  onSetupChange?: () => unknown;
  children: ReactNode;
}) {
  const { property, teamId } = props;
  const teamName = props.me?.teams.find((t) => t.id === teamId)?.name;
  const notAMember = typeof props.error === 'object' && props.error?.notAMember === true;
  // The not-a-member page's own title, here too: a parent's effect runs after its child's.
  useDocumentTitle(...(notAMember ? ['Team not available'] : [props.title, property ? property.name : teamName]));
  if (notAMember) return <NotAMemberPage />;
  return (
    <>
      <SkipLink />
      <Header me={props.me} teamId={teamId} />
      <Main>
        {props.back && (
          <p>
            <Link to={`/t/${teamId}`}>← Properties</Link>
          </p>
        )}
        {property && (
          <>
            <p className="crumbs">
              <Link to={`/t/${teamId}`}>Properties</Link> / <strong>{property.name}</strong>{' '}
              <span className="hint">{property.domain}</span>
            </p>
            <nav className="tabs" aria-label="Property">
              {PROPERTY_TABS.map(([path, label]) => (
                <NavLink key={path} to={`/t/${teamId}/p/${property.id}/${path}`}>
                  {label}
                </NavLink>
              ))}
            </nav>
          </>
        )}
        <h1>{props.title}</h1>
        <ErrorLine error={props.error} />
        {property && (
          <PropertySetup
            teamId={teamId}
            propertyId={property.id}
            manages={canManage(props.me, teamId)}
            watch={property}
            onChange={props.onSetupChange}
          />
        )}
        {props.children}
      </Main>
    </>
  );
}

/** What a view shows while its data loads, or, once loading failed, instead of an endless "Loading…". */
export function Loading({ failed = false }: { failed?: boolean }) {
  return failed ? (
    <p className="empty">
      This view could not be loaded (the reason is above).{' '}
      <button type="button" className="secondary small" onClick={() => window.location.reload()}>
        Try again
      </button>
    </p>
  ) : (
    <p className="loading" aria-live="polite">
      Loading…
    </p>
  );
}

/** A connection status as a badge, followed by what it means. */
export function StatusLine({ status, meaning, testId }: { status: string; meaning: string; testId: string }) {
  return (
    <p>
      <span className={`badge ${status}`} data-testid={testId}>
        {status.replace('_', ' ')}
      </span>{' '}
      {meaning}
    </p>
  );
}

/** A token or secret for owners and admins; for members, the sentence saying who sees it. */
export function SecretValue({ value, testId }: { value: string | null; testId: string }) {
  return value ? (
    <>
      <code data-testid={testId}>{value}</code> <CopyButton value={value} label={testId.replace('-', ' ')} />
    </>
  ) : (
    <span data-testid={`${testId}-hidden`}>Shown to owners and admins only.</span>
  );
}

/**
 * The newest attempt, refused while the status still holds because one was accepted within the
 * last 24 hours: what happened and its fix, so the badge is not the whole story.
 */
export function RefusalWarning(props: {
  refusal: CrawlSetup['latestRefusal'];
  what: 'batch' | 'lead';
  timeZone?: string;
  testId: string;
}) {
  const { refusal } = props;
  if (!refusal) return null;
  return (
    <p className="warning" role="note" data-testid={props.testId}>
      <strong>
        The latest {props.what}, at {formatWhen(refusal.at, props.timeZone)}, was refused ({refusal.statusCode}
        {refusal.reason ? `: ${refusal.reason}` : ''}).
      </strong>{' '}
      {refusal.fix ?? 'See the log below for why.'}{' '}
      {props.what === 'batch'
        ? 'A batch was accepted within the last 24 hours, so the status stays Connected; if every batch of a whole day is refused, it turns Rejecting.'
        : 'A lead was stored within the last 24 hours, so the status stays Verified; if every attempt of a whole day is refused, it turns Rejecting events.'}
    </p>
  );
}

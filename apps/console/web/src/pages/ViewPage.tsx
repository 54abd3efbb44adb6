import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Me } from '../api.ts';
import { ErrorLine } from '../console-data.tsx';
import { Header } from './Header.tsx';

/** The frame of every signed-in view: the header, a way back to the team's properties, the title, the error line. */
export function ViewPage(props: {
  me: Me | null;
  teamId: string;
  title: string;
  error: string | null;
  back?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <Header me={props.me} teamId={props.teamId} />
      <main>
        {props.back && (
          <p>
            <Link to={`/t/${props.teamId}`}>← Properties</Link>
          </p>
        )}
        <h1>{props.title}</h1>
        <ErrorLine error={props.error} />
        {props.children}
      </main>
    </>
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
    <code data-testid={testId}>{value}</code>
  ) : (
    <span data-testid={`${testId}-hidden`}>Shown to owners and admins only.</span>
  );
}

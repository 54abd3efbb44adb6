import { useState } from 'react';
import { consoleApi } from '../console-client.ts';
import type { CsvDownload } from '../console-types.ts';
import { plainText } from '../plain-errors.ts';

// "Export CSV" on a view: the view's own range, read whole from the console API with the team's
// header (a plain link could not send it), then saved under the name the console gave the file.

export type ExportKind = 'answers' | 'crawlers' | 'referrals' | 'leads';

const EXPORTS: Record<ExportKind, typeof consoleApi.exportAnswers> = {
  answers: consoleApi.exportAnswers,
  crawlers: consoleApi.exportCrawlerActivity,
  referrals: consoleApi.exportAiReferrals,
  leads: consoleApi.exportLeads,
};

/** Hands a file to the browser's downloads. */
function save({ blob, filename }: CsvDownload) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** What a failed export says: a cut download is not an offline browser. */
function failure(err: unknown): string {
  if (err instanceof TypeError) {
    return 'The export stopped before it finished, so nothing was saved. Please try again; if it keeps happening, try a shorter range.';
  }
  return plainText(err);
}

export function ExportCsvButton(props: {
  teamId: string;
  propertyId: string;
  kind: ExportKind;
  from: string;
  to: string;
  /** What the button exports, for its accessible name ("Export CSV: AI crawler hits per day…"). */
  what: string;
  /** Why this person may not export it (members and leads); the button is then disabled. */
  refusal?: string;
}) {
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  async function exportNow() {
    setState({ busy: true });
    try {
      save(await EXPORTS[props.kind](props.teamId, props.propertyId, { from: props.from, to: props.to }));
      setState({ busy: false });
    } catch (err) {
      setState({ busy: false, error: failure(err) });
    }
  }
  return (
    <div className="export" data-testid={`export-${props.kind}`}>
      <button
        type="button"
        className="secondary"
        onClick={exportNow}
        disabled={state.busy || props.refusal !== undefined}
        aria-label={`Export CSV: ${props.what}, ${props.from} to ${props.to}`}
        aria-describedby={props.refusal ? `export-${props.kind}-why` : undefined}
      >
        {state.busy ? 'Preparing CSV…' : 'Export CSV'}
      </button>
      {props.refusal && (
        <span className="hint" id={`export-${props.kind}-why`}>
          {props.refusal}
        </span>
      )}
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}

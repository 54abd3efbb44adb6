import { defineConsoleHandler } from '../define-console-handler.ts';
import { csvDownload } from './csv-download.ts';

/** GET /api/properties/{id}/exports/answers: the property's answers with their verdicts, as CSV. */
export const exportAnswersHandler = defineConsoleHandler(
  'exportAnswers',
  ({ db, now }) =>
    async ({ team, params, query }) =>
      csvDownload(db, 'answers', { teamId: team.teamId, propertyId: params.id, query, now: now() }),
);

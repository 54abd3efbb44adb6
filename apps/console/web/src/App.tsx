import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { CrawlSetupPage } from './pages/CrawlSetupPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { InvitePage } from './pages/InvitePage.tsx';
import { KeysPage } from './pages/KeysPage.tsx';
import { NewTeamPage } from './pages/NewTeamPage.tsx';
import { OutgoingMailPage } from './pages/OutgoingMailPage.tsx';
import { PropertySettingsPage } from './pages/PropertySettingsPage.tsx';
import { SignInPage } from './pages/SignInPage.tsx';
import { TeamPage } from './pages/TeamPage.tsx';
import { TeamSettingsPage } from './pages/TeamSettingsPage.tsx';
import { UnsubscribePage } from './pages/UnsubscribePage.tsx';
import { Loading } from './pages/ViewPage.tsx';
import { WebhookSetupPage } from './pages/WebhookSetupPage.tsx';

// The chart views load with their chart library, so signing in does not wait for it.
const ActivityPage = lazy(() => import('./pages/ActivityPage.tsx').then((m) => ({ default: m.ActivityPage })));
const AnswersPage = lazy(() => import('./pages/AnswersPage.tsx').then((m) => ({ default: m.AnswersPage })));
const SourcesPage = lazy(() => import('./pages/SourcesPage.tsx').then((m) => ({ default: m.SourcesPage })));
const PromptMatrixPage = lazy(() =>
  import('./pages/PromptMatrixPage.tsx').then((m) => ({ default: m.PromptMatrixPage })),
);

/**
 * Routes hold the team, the property and (in the query) the day range and filters, so every view
 * can be bookmarked and reloaded.
 */
export function App() {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/sign-in" element={<SignInPage mode="sign-in" />} />
      <Route path="/sign-up" element={<SignInPage mode="sign-up" />} />
      <Route path="/invite" element={<InvitePage />} />
      <Route path="/teams/new" element={<NewTeamPage />} />
      <Route path="/unsubscribe" element={<UnsubscribePage />} />
      <Route path="/t/:teamId" element={<TeamPage />} />
      <Route path="/t/:teamId/keys" element={<KeysPage />} />
      <Route path="/t/:teamId/settings" element={<TeamSettingsPage />} />
      <Route path="/t/:teamId/mail" element={<OutgoingMailPage />} />
      <Route path="/t/:teamId/p/:propertyId" element={<ToActivity />} />
      <Route
        path="/t/:teamId/p/:propertyId/activity"
        element={
          <Suspense fallback={<Loading />}>
            <ActivityPage />
          </Suspense>
        }
      />
      <Route
        path="/t/:teamId/p/:propertyId/answers"
        element={
          <Suspense fallback={<Loading />}>
            <AnswersPage />
          </Suspense>
        }
      />
      <Route
        path="/t/:teamId/p/:propertyId/prompts"
        element={
          <Suspense fallback={<Loading />}>
            <PromptMatrixPage />
          </Suspense>
        }
      />
      <Route
        path="/t/:teamId/p/:propertyId/sources"
        element={
          <Suspense fallback={<Loading />}>
            <SourcesPage />
          </Suspense>
        }
      />
      <Route path="/t/:teamId/p/:propertyId/settings" element={<PropertySettingsPage />} />
      <Route path="/t/:teamId/p/:propertyId/crawl" element={<CrawlSetupPage />} />
      <Route path="/t/:teamId/p/:propertyId/webhook" element={<WebhookSetupPage />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

/** A property opens on its activity. */
function ToActivity() {
  const { teamId, propertyId } = useParams();
  return <Navigate to={`/t/${teamId}/p/${propertyId}/activity`} replace />;
}

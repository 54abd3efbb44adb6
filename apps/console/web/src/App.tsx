import { Navigate, Route, Routes } from 'react-router';
import { CrawlSetupPage } from './pages/CrawlSetupPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { KeysPage } from './pages/KeysPage.tsx';
import { NewTeamPage } from './pages/NewTeamPage.tsx';
import { SignInPage } from './pages/SignInPage.tsx';
import { TeamPage } from './pages/TeamPage.tsx';
import { WebhookSetupPage } from './pages/WebhookSetupPage.tsx';

/** Routes hold the team and property, so every view can be bookmarked and reloaded. */
export function App() {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/sign-in" element={<SignInPage mode="sign-in" />} />
      <Route path="/sign-up" element={<SignInPage mode="sign-up" />} />
      <Route path="/teams/new" element={<NewTeamPage />} />
      <Route path="/t/:teamId" element={<TeamPage />} />
      <Route path="/t/:teamId/keys" element={<KeysPage />} />
      <Route path="/t/:teamId/p/:propertyId/crawl" element={<CrawlSetupPage />} />
      <Route path="/t/:teamId/p/:propertyId/webhook" element={<WebhookSetupPage />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

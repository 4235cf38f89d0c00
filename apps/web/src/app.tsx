import type { ReactNode } from 'react';
import { useSession } from './api/session';
import { Loading, NotFound } from './components/states';
import { Link, navigate, useLocation } from './router';
import { AccountPage } from './pages/account-page';
import { AnnotatePage, AnnotationCampaignsPage } from './pages/annotate-page';
import { LoginPage, SignUpPage } from './pages/auth-pages';
import { CampaignPage } from './pages/campaign-page';
import { CampaignsPage } from './pages/campaigns-page';
import { ComparisonPage } from './pages/comparison-page';
import { DelegationPage } from './pages/delegation-page';
import { ExecutionPage } from './pages/execution-page';
import { ItemPage } from './pages/item-page';
import { LeaderboardPage } from './pages/leaderboard-page';

const ID = '([0-9a-fA-F-]{36})';
const routes: { pattern: RegExp; render: (m: string[]) => ReactNode; signedIn?: boolean }[] = [
  { pattern: /^\/$/, render: () => <LeaderboardPage /> },
  { pattern: /^\/login$/, render: () => <LoginPage /> },
  { pattern: /^\/signup$/, render: () => <SignUpPage /> },
  { pattern: /^\/campaigns$/, render: () => <CampaignsPage />, signedIn: true },
  { pattern: new RegExp(`^/campaigns/${ID}$`), render: (m) => <CampaignPage id={m[1]!} /> },
  { pattern: new RegExp(`^/campaigns/${ID}/compare$`), render: (m) => <ComparisonPage id={m[1]!} /> },
  { pattern: new RegExp(`^/campaigns/${ID}/delegation$`), render: (m) => <DelegationPage id={m[1]!} /> },
  { pattern: new RegExp(`^/executions/${ID}$`), render: (m) => <ExecutionPage id={m[1]!} /> },
  { pattern: /^\/annotate$/, render: () => <AnnotationCampaignsPage />, signedIn: true },
  { pattern: new RegExp(`^/annotate/items/${ID}$`), render: (m) => <ItemPage id={m[1]!} />, signedIn: true },
  { pattern: new RegExp(`^/annotate/${ID}$`), render: (m) => <AnnotatePage id={m[1]!} />, signedIn: true },
  { pattern: /^\/account$/, render: () => <AccountPage />, signedIn: true },
];

export function App() {
  const { path } = useLocation();
  const { viewer, checking, signOut } = useSession();
  const match = routes.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  let content: ReactNode;
  if (!match) content = <NotFound what="page" />;
  else if (match.r.signedIn && checking) content = <Loading />;
  else if (match.r.signedIn && !viewer)
    content = (
      <p className="state">
        Sign in to see this page. <Link to={`/login?next=${encodeURIComponent(path)}`}>Sign in</Link>
      </p>
    );
  else content = match.r.render([...match.m!]);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          Fanout
        </Link>
        <nav aria-label="Main">
          <Link to="/">Leaderboard</Link>
          {viewer ? (
            <>
              <Link to="/campaigns">Campaigns</Link>
              <Link to="/annotate">Annotate</Link>
              <Link to="/account">Account</Link>
              <span className="who">{viewer.organization.name}</span>
              <button
                type="button"
                onClick={() => {
                  void signOut().then(() => navigate('/'));
                }}
              >
                Sign out
              </button>
            </>
          ) : (
            <>
              <Link to="/login">Sign in</Link>
              <Link to="/signup">Sign up</Link>
            </>
          )}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {content}
      </main>
    </>
  );
}

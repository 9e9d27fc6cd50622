import { useEffect, useState } from 'react';
import type { ApiError } from '../api/api-client';
import { hasSignInCode, signInFromFragment } from '../api/sign-in';
import { signInAdvice } from '../api/sign-in-advice';
import { SessionView } from '../session/session-view';
import { SessionList } from '../sessions/session-list';
import { SessionSidebar } from '../sessions/session-sidebar';
import { useHashRoute } from './hash-route';

/**
 * The page: signs in from the URL fragment, then shows the session list, or one session with the
 * list beside it (on wide screens).
 */
export function App() {
  // Without a sign-in code in the URL the cookie decides: render the route at once.
  const [signIn, setSignIn] = useState<'pending' | 'done' | ApiError>(() => (hasSignInCode() ? 'pending' : 'done'));
  useEffect(() => {
    if (hasSignInCode()) void signInFromFragment().then((refused) => setSignIn(refused ?? 'done'));
  }, []);
  const route = useHashRoute();
  const [sessionActivity, setSessionActivity] = useState('');
  const sessionOpen = signIn === 'done' && route.view === 'session';
  return (
    <>
      <nav className="top" aria-label="Main">
        <a href="#/">clawsmith</a>
        {sessionOpen && (
          <a href="#/" className="all-sessions">
            All sessions
          </a>
        )}
      </nav>
      <div className={sessionOpen ? 'shell with-sidebar' : 'shell'}>
        {sessionOpen && <SessionSidebar openSessionId={route.sessionId} refresh={sessionActivity} />}
        <main>
          {signIn === 'pending' && <p role="status">Signing in…</p>}
          {typeof signIn === 'object' && (
            <p role="alert" className="error">
              <code className="badge code">{signIn.code}</code> {signInAdvice(signIn)}
            </p>
          )}
          {signIn === 'done' &&
            (route.view === 'session' ? (
              <SessionView key={route.sessionId} sessionId={route.sessionId} onActivity={setSessionActivity} />
            ) : (
              <SessionList />
            ))}
        </main>
      </div>
    </>
  );
}

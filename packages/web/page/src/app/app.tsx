import { useEffect, useState } from 'react';
import { signInFromFragment } from '../api/sign-in';
import { SessionView } from '../session/session-view';
import { SessionList } from '../sessions/session-list';
import { useHashRoute } from './hash-route';

/** The page: signs in from the URL fragment, then shows the session list or one session. */
export function App() {
  const [signIn, setSignIn] = useState<'pending' | 'done' | 'refused'>('pending');
  useEffect(() => {
    void signInFromFragment().then((accepted) => setSignIn(accepted ? 'done' : 'refused'));
  }, []);
  const route = useHashRoute();
  return (
    <>
      <nav className="top" aria-label="Main">
        <a href="#/">clawsmith</a>
      </nav>
      <main>
        {signIn === 'pending' && <p role="status">Signing in…</p>}
        {signIn === 'refused' && (
          <p role="alert" className="error">
            The token was refused: copy the URL that clawsmith web printed again.
          </p>
        )}
        {signIn === 'done' &&
          (route.view === 'session' ? (
            <SessionView key={route.sessionId} sessionId={route.sessionId} />
          ) : (
            <SessionList />
          ))}
      </main>
    </>
  );
}

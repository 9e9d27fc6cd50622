// The page's first script, small on purpose: a session opened by its URL starts its requests and
// the Markdown renderer's download here, so the server answers while the browser still fetches,
// compiles and runs React (the rest of the page, its own chunk). A sign-in URL's fragment is no
// session route: nothing is asked before signing in.
import { parseRoute } from './app/route';
import { prefetchSessionView } from './session/first-view';
import './styles.css';

const opening = parseRoute(location.hash);
if (opening.view === 'session') {
  prefetchSessionView(opening.sessionId);
  void import('./markdown/markdown-renderer').catch(() => undefined);
}

const root = document.getElementById('root')!;
import('./app/render-app').then(
  ({ renderApp }) => renderApp(root),
  () => {
    root.textContent =
      'The page could not load its scripts (the server may have been rebuilt or stopped); reload the page.';
  },
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

/** Renders the page into `#root`. Its own chunk: React and every view load behind the first requests. */
export function renderApp(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

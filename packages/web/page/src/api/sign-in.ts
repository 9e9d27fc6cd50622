import { sendJson } from './api-client';

/**
 * Trades the token in the URL fragment (`#token=…`, never sent to a server) for the session
 * cookie, and removes it from the address bar and history. Resolves to false when the token
 * was refused; true when signed in or when there was no token to trade.
 */
export async function signInFromFragment(): Promise<boolean> {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token === null) return true;
  history.replaceState(null, '', `${location.pathname}#/`);
  try {
    await sendJson('/api/login', { token });
    return true;
  } catch {
    return false;
  }
}

import { ApiError } from '../api/api-client';

/** What went wrong and what to do, from the server's error code. */
export function ErrorNotice({ error }: { error: unknown }) {
  const signedOut = error instanceof ApiError && error.code === 'unauthorized';
  const message = signedOut
    ? 'You are not signed in: open a sign-in URL of clawsmith web (press Enter in its terminal for a new one).'
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <p role="alert" className="error">
      {error instanceof ApiError && <code className="badge code">{error.code}</code>} {message}
    </p>
  );
}

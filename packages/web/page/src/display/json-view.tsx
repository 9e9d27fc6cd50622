import { LiteralText } from './literal-text';

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A `json` display: collapsed behind its title, pretty-printed when it parses. */
export function JsonView({ body }: { body: string }) {
  return (
    <details className="json">
      <summary>JSON</summary>
      <LiteralText text={pretty(body)} block />
    </details>
  );
}

import type { ToolResult } from '../api/api-types';
import { ArtifactViewer } from './artifact-viewer';
import { CommandView } from './command-view';
import { DiffLines } from './diff-lines';
import { DisplayFields } from './display-fields';
import { JsonView } from './json-view';
import { LiteralText } from './literal-text';
import { SearchView } from './search-view';

/** A tool result's display, rendered for its kind; the raw output when it has none. */
export function DisplayView({ sessionId, result, output }: { sessionId: string; result: ToolResult; output: string }) {
  const display = result.display;
  const artifactId = result.artifact?.id;
  const body = (() => {
    if (!display) return output === '' ? null : <LiteralText text={output} block />;
    switch (display.kind) {
      case 'command':
        return <CommandView display={display} result={result} />;
      case 'search':
        return <SearchView display={display} />;
      case 'diff':
        return <DiffLines diff={display.body ?? ''} />;
      case 'json':
        return <JsonView body={display.body ?? ''} />;
      default:
        return display.body ? <LiteralText text={display.body} block /> : null;
    }
  })();
  return (
    <div className={`display kind-${display?.kind ?? 'none'}`}>
      {body}
      {display && display.kind !== 'command' && <DisplayFields fields={display.fields} />}
      {artifactId !== undefined && <ArtifactViewer sessionId={sessionId} artifactId={artifactId} />}
    </div>
  );
}

import type { ToolDisplay, ToolResult } from '../api/api-types';
import { LiteralText } from './literal-text';

function field(display: ToolDisplay, label: string): string | undefined {
  return display.fields?.find((candidate) => candidate.label === label)?.value;
}

/** A `command` display: the command, its exit code and duration, and its output tail. */
export function CommandView({ display, result }: { display: ToolDisplay; result: ToolResult }) {
  const exit = result.exitCode !== undefined ? `exit code ${result.exitCode}` : field(display, 'status');
  const duration = result.durationMs !== undefined ? `${result.durationMs} ms` : field(display, 'duration');
  return (
    <div className="command">
      <p className="command-meta">
        {exit && <span className="badge exit">{exit}</span>}{' '}
        {duration && <span className="badge duration">{duration}</span>}
      </p>
      {display.body !== undefined && display.body !== '' && <LiteralText text={display.body} block />}
    </div>
  );
}

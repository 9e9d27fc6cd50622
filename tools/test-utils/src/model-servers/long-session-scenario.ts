// The 200-step session of the long-session test and the compaction bench: five turns of forty
// tool steps (a read of a 12 KB notes file, an edit, a test run, a command whose 80 KB output
// becomes an artifact, a search) and a closing text each. Played by the windowed model server,
// which numbers its accepted non-summary requests across the whole session.
import type { ModelStep } from './streaming-model-server.js';

/** Turns of the session, each one `clawsmith run` (the later ones with `--session`). */
export const LONG_SESSION_TURNS = 5;
/** Tool steps per turn (under core's default of 50 requests per turn). */
export const LONG_SESSION_STEPS_PER_TURN = 40;
/** Tool steps in the whole session. */
export const LONG_SESSION_TOOL_STEPS = LONG_SESSION_TURNS * LONG_SESSION_STEPS_PER_TURN;

const WORDS = ['alpha', 'river', 'copper', 'lantern', 'meadow', 'signal', 'harbor', 'quartz', 'ember', 'violet'];
const NOTES_FILES = 12;

/** About 12 KB of distinct text. */
function notesText(file: number): string {
  const lines: string[] = [];
  for (let line = 0; lines.join('\n').length < 12_000; line += 1)
    lines.push(
      `notes ${file} line ${line}: ${Array.from({ length: 8 }, (_, word) => WORDS[(file * 5 + line * 3 + word * word) % WORDS.length]).join(' ')} value=${(file * 1_000 + line) * 31}`,
    );
  return `${lines.join('\n')}\n`;
}

/** The workspace the session starts from. */
export const LONG_SESSION_FILES: Readonly<Record<string, string>> = Object.freeze({
  'src/counter.mjs': 'export const count = 0;\n',
  'test.mjs': "import { count } from './src/counter.mjs';\nconsole.log(`count is ${count}`);\n",
  // 2,000 lines of about 40 bytes: over the 50 KB kept inline, so the output becomes an artifact.
  'report.mjs': "for (let line = 0; line < 2000; line += 1) console.log(`report line ${line}: ${'x'.repeat(24)}`);\n",
  ...Object.fromEntries(
    Array.from({ length: NOTES_FILES }, (_, file) => [`notes/notes-${file + 1}.txt`, notesText(file + 1)]),
  ),
});

/** The counter's value after `steps` tool steps have run. */
export function longSessionCount(steps: number): number {
  return Math.floor((steps + 3) / 5);
}

/** Tool step `step` (0-based over the whole session). */
function toolStep(step: number): ModelStep {
  const cycle = Math.floor(step / 5);
  switch (step % 5) {
    case 0:
      return { calls: [{ name: 'read_file', arguments: { path: `notes/notes-${(cycle % NOTES_FILES) + 1}.txt` } }] };
    case 1:
      return {
        text: `Bumping the counter to ${cycle + 1}.`,
        calls: [
          {
            name: 'edit_file',
            arguments: { path: 'src/counter.mjs', oldText: `count = ${cycle};`, newText: `count = ${cycle + 1};` },
          },
        ],
      };
    case 2:
      return { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs' } }] };
    case 3:
      return { calls: [{ name: 'run_command', arguments: { command: 'node report.mjs' } }] };
    default:
      return {
        calls: [{ name: 'search_files', arguments: { query: `value=${(1_000 + cycle) * 31}\\b`, regex: true } }],
      };
  }
}

/** The answer to the session's `played`-th non-summary request. */
export function longSessionStep(played: number): ModelStep {
  const perTurn = LONG_SESSION_STEPS_PER_TURN + 1;
  const turn = Math.floor(played / perTurn);
  const within = played % perTurn;
  if (turn >= LONG_SESSION_TURNS) return { text: 'Nothing left to do.' };
  if (within === LONG_SESSION_STEPS_PER_TURN)
    return {
      text: `Turn ${turn + 1} done: the counter is ${longSessionCount((turn + 1) * LONG_SESSION_STEPS_PER_TURN)}.`,
    };
  return toolStep(turn * LONG_SESSION_STEPS_PER_TURN + within);
}

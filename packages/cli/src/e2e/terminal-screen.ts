// Test harness: what a person sees. Replays the bytes a program wrote to its pseudo-terminal
// through a real terminal emulator (xterm.js, headless) and returns the rows of the screen and
// scrollback, so a test can tell a line drawn once from one drawn again. Not part of the build.
import xterm from '@xterm/headless';

/** The rows (screen and scrollback, trailing blanks trimmed) that `output` leaves on a `cols`-wide terminal. */
export function renderedRows(output: string, cols = 120, rows = 40): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
  return new Promise((resolve) => {
    terminal.write(output, () => {
      const buffer = terminal.buffer.active;
      const lines: string[] = [];
      for (let index = 0; index < buffer.length; index += 1)
        lines.push(buffer.getLine(index)?.translateToString(true) ?? '');
      while (lines.length > 0 && lines.at(-1) === '') lines.pop();
      terminal.dispose();
      resolve(lines);
    });
  });
}

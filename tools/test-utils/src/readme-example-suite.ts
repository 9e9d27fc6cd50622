import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exampleModelScript,
  readmeExample,
  runExample,
  runExampleWithModel,
  type ExampleStart,
} from './readme-example.js';

/** What {@link describeReadmeExample} checks about one example file. */
export interface ReadmeExampleSuite {
  /** The folder of the test file calling this (`import.meta.dirname`); the package root is its parent. */
  readonly testFolder: string;
  /** The example, relative to the package root, for example `examples/agent-turn.ts`. */
  readonly example: string;
  /** Text the example must print on each run. */
  readonly prints: readonly string[];
  /** Per run; the test allows two runs. Default 120 s. */
  readonly timeoutMs?: number;
  /** How the program starts (see {@link runExample}); `bundled` unless its packages start worker threads from module files. */
  readonly start?: ExampleStart;
}

/**
 * The README example suite every package shares: the README shows `example` verbatim (after its
 * `exampleMarker` line), and the example runs as its own program twice in a row, printing each of
 * `prints` every time. Twice, because each run must create and remove its own temporary folder.
 * An example with a model script (`<name>.model.json`) runs against a scripted server on 127.0.0.1
 * whose URL it reads from `OPENAI_BASE_URL`, and must ask it exactly the scripted steps.
 */
export function describeReadmeExample({
  testFolder,
  example,
  prints,
  timeoutMs = 120_000,
  start = 'bundled',
}: ReadmeExampleSuite): void {
  const packageRoot = resolve(testFolder, '..');
  describe(`the README example ${example}`, () => {
    it(`is ${example} verbatim`, () => {
      const { readme, file } = readmeExample(packageRoot, example);
      expect(readme).toBe(file);
    });

    it('runs as a program and prints what it did, twice in a row', { timeout: 2 * timeoutMs + 10_000 }, async () => {
      // An example with `<name>.model.json` beside it talks to a model: a scripted one on 127.0.0.1.
      const steps = exampleModelScript(join(packageRoot, example));
      for (let run = 0; run < 2; run += 1) {
        const output = steps
          ? await runExampleWithModel(packageRoot, example, steps, timeoutMs, start)
          : await runExample(packageRoot, example, timeoutMs, start);
        for (const text of prints) expect(output, `run ${run + 1} of ${example}`).toContain(text);
      }
    });
  });
}

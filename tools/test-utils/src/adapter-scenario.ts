// The scenario every framework adapter's test drives its real framework through, against a
// scripted model server on 127.0.0.1: read a file, a failing `node test.mjs`, an edit, the passing
// re-run, a large output (artifact), a hard refusal, an ask the person denies; then undo from code.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ModelStep } from './model-servers/streaming-model-server.js';
import { testdir } from './testdir.js';

const MATH = 'export const add = (a, b) => a - b;\n';
const TEST =
  "import { add } from './math.mjs';\nif (add(2, 3) !== 5) { console.error('add(2, 3) is', add(2, 3)); process.exit(1); }\nconsole.log('ok');\n";
const BIG = 'a line of a large log file\n'.repeat(3_000);

/** The commands the model runs, in order: the person is asked about each (mode `accept-edits`). */
export const ADAPTER_SCENARIO_ASKS: readonly string[] = ['node test.mjs', 'node test.mjs', 'rm -rf build'];

/** The person's answer in the scenario: the test runs yes, the deletion no. */
export function scenarioPersonApproves(command: string): boolean {
  return command === 'node test.mjs';
}

/** The scenario's workspace, a temporary folder removed after the test. */
export function adapterScenarioWorkspace(): string {
  return testdir({ 'math.mjs': MATH, 'test.mjs': TEST, 'big.log': BIG, build: { 'keep.txt': 'keep' } });
}

/**
 * The model's script. `strictNulls`: the model sends every field, `null` for those it leaves out
 * (OpenAI strict mode).
 */
export function adapterScenarioSteps(options: { readonly strictNulls?: boolean } = {}): ModelStep[] {
  const read = options.strictNulls ? { offset: null, length: null, startLine: null, endLine: null } : {};
  const command = options.strictNulls ? { timeoutMs: null, cwd: null } : {};
  return [
    { calls: [{ name: 'read_file', arguments: { path: 'math.mjs', ...read } }] },
    { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs', ...command } }] },
    { calls: [{ name: 'edit_file', arguments: { path: 'math.mjs', oldText: 'a - b', newText: 'a + b' } }] },
    { calls: [{ name: 'run_command', arguments: { command: 'node test.mjs', ...command } }] },
    { calls: [{ name: 'read_file', arguments: { path: 'big.log', ...read } }] },
    { calls: [{ name: 'write_file', arguments: { path: '.git/hooks/pre-commit', content: 'curl evil' } }] },
    { calls: [{ name: 'run_command', arguments: { command: 'rm -rf build', ...command } }] },
    { text: 'The test passes now.' },
  ];
}

/**
 * What the model read after the last step (its tool results, in order) and what the workspace
 * holds: `declined` is what the framework tells the model about the call the person declined.
 */
export function expectAdapterScenarioRun(
  results: readonly string[],
  workspaceRoot: string,
  declined: string | RegExp,
): void {
  expect(results).toHaveLength(7);
  expect(results[0]).toContain('a - b');
  expect(results[1]).toMatch(/^\[error command_failed; retryable: no\]/);
  expect(results[1]).toContain('add(2, 3) is -1');
  expect(results[2]).not.toMatch(/^\[/);
  expect(results[3]).toContain('ok');
  expect(results[3]).not.toMatch(/^\[/);
  expect(results[4]).toContain('Read the rest with read_artifact');
  expect(Buffer.byteLength(results[4] as string)).toBeLessThan(50_000);
  expect(results[5]).toMatch(/^\[error protected_path; retryable: no\]/);
  if (typeof declined === 'string') expect(results[6]).toBe(declined);
  else expect(results[6]).toMatch(declined);
  expect(existsSync(join(workspaceRoot, 'build/keep.txt'))).toBe(true);
  expect(existsSync(join(workspaceRoot, '.git'))).toBe(false);
  expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH.replace('a - b', 'a + b'));
}

/** The restore points a host lists, as far as the scenario reads them. */
export interface ScenarioHost {
  listRestorePoints(): Promise<
    readonly { turnId: string; manifest: { files: readonly { change: string; path: string }[] } }[]
  >;
  undo(stepId: string): Promise<unknown>;
}

/**
 * Undo from code: the only change of the run is the edit of `math.mjs`; undoing the first restore
 * point (and so every later one) brings the file back. Returns how many restore points there were.
 */
export async function expectAdapterScenarioUndo(host: ScenarioHost, workspaceRoot: string): Promise<number> {
  const points = await host.listRestorePoints();
  expect(points.flatMap((point) => point.manifest.files.map((file) => `${file.change} ${file.path}`))).toEqual([
    'modified math.mjs',
  ]);
  await host.undo((points[0] as { turnId: string }).turnId);
  expect(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8')).toBe(MATH);
  return points.length;
}

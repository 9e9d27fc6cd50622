// Test support: runs a fixture script in a child process until its output says it reached the
// point under test, then SIGKILLs it (a crash at exactly that point) and returns its session id.
import { spawn } from 'node:child_process';
import { bundledFixture } from '@clawsmith/test-utils';

/** A child (and the bundle of its fixture, built once per test process) takes seconds on a loaded machine. */
export const CHILD_TIMEOUT = 240_000;

/**
 * Spawns `fixture home workspace` (bundled with core's sources, once per test process), SIGKILLs it once `reached`
 * holds for its output, and resolves with the `SESSION <id>` it printed. The child's stdin stays
 * open, so fixtures can wait on it and only the SIGKILL ends them.
 */
export async function runUntilKilled(
  fixture: string,
  home: string,
  workspace: string,
  reached: (output: string) => boolean,
): Promise<string> {
  const program = await bundledFixture(fixture);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [program, home, workspace], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (reached(output)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code, signal) => {
      child.stdin.destroy();
      const session = /SESSION (\S+)/.exec(output)?.[1];
      if (signal === 'SIGKILL' && session) resolvePromise(session);
      else reject(new Error(`${fixture} did not reach its point (exit ${code}, ${signal}): ${output}\n${errors}`));
    });
  });
}

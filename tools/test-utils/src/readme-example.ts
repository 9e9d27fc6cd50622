import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The marker line a README puts right before the code block that shows an example file. */
export function exampleMarker(examplePath: string): string {
  return `<!-- example: ${examplePath} (run by the tests; edit the file, then copy it here) -->`;
}

/**
 * The code block that follows `exampleMarker(examplePath)` in `packageRoot`'s README, and the
 * example file itself, so a test can require them to be equal. Throws when the marker or its
 * code block is missing.
 */
export function readmeExample(packageRoot: string, examplePath: string): { readme: string; file: string } {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const marker = exampleMarker(examplePath);
  const at = readme.indexOf(marker);
  if (at === -1) throw new Error(`README.md has no line ${marker}`);
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(at + marker.length));
  if (!block?.[1]) throw new Error(`README.md has no \`\`\`ts block after ${marker}`);
  return { readme: block[1], file: readFileSync(join(packageRoot, examplePath), 'utf8') };
}

/**
 * Runs an example file as its own Node process (TypeScript through tsx, sibling packages from
 * their sources) and returns what it printed. Throws with its output when it exits non-zero.
 */
export function runExample(packageRoot: string, examplePath: string, timeoutMs = 120_000): string {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  // Plain text whatever the runner's terminal: CI and vitest set FORCE_COLOR, which colours console.log.
  const { FORCE_COLOR: _forced, ...environment } = process.env;
  const run = spawnSync(process.execPath, ['--conditions=@clawsmith/source', '--import', tsx, examplePath], {
    cwd: packageRoot,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...environment, NO_COLOR: '1' },
  });
  if (run.status !== 0)
    throw new Error(`${examplePath} exited ${run.status ?? run.signal}:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

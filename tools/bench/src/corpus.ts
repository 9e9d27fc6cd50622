// Locates the benchmark corpus built by the shared make-corpus.sh recipe (never committed).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The corpus folder: `CLAWSMITH_BENCH_CORPUS`, or `../corpus` beside the repository, built there
 * with the shared recipe when it is missing.
 */
export function corpusDir(): string {
  const repository = resolve(import.meta.dirname, '../../..');
  const folder = process.env.CLAWSMITH_BENCH_CORPUS ?? resolve(repository, '../corpus');
  if (existsSync(folder)) return folder;
  const recipe = resolve(repository, '../shared/bench/make-corpus.sh');
  console.log(`Building the benchmark corpus in ${folder} with ${recipe} (a few minutes, once)…`);
  const built = spawnSync('bash', [recipe, folder], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`The corpus recipe failed; set CLAWSMITH_BENCH_CORPUS to a built corpus.`);
  return folder;
}

// What the protected-path search adds to run_command("true") in the 3,677-folder corpus: the
// first command (every folder listed) and later ones (remembered listings, one lstat per folder),
// beside run_command("true") in an empty workspace measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prepareCommand, runCommand } from '@clawsmith/command-sandbox';
import { corpusDir } from './corpus.js';
import { measure, report } from './measure.js';

const corpus = corpusDir();
const empty = mkdtempSync(join(tmpdir(), 'clawsmith-bench-protected-'));
try {
  const start = performance.now();
  (await prepareCommand({}, corpus, 'true')).release();
  const firstMs = performance.now() - start;
  const runs = 20;
  const reference = await measure(
    'runCommand true, empty workspace',
    () => runCommand({}, { workspaceRoot: empty, command: 'true' }),
    runs,
  );
  const prepared = await measure(
    'prepareCommand true, corpus (remembered listings)',
    async () => (await prepareCommand({}, corpus, 'true')).release(),
    runs,
  );
  const corpusRun = await measure(
    'runCommand true, corpus',
    () => runCommand({}, { workspaceRoot: corpus, command: 'true' }),
    runs,
  );
  report('run_command("true") with the protected-path search of the corpus', reference, [prepared, corpusRun]);
  console.log(
    `\nfirst prepareCommand in the corpus (every folder listed): ${firstMs.toFixed(1)} ms; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(empty, { recursive: true, force: true });
}

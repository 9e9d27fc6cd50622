// Where an installed package's command-line script lives, so the test runner can start it with
// this Node (`node <script>`) instead of paying for `npx` to find it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The script `npx <binName>` would run for `packageName`, resolved from the repository's root
 * manifest (so the repository's own installed version, never a global one).
 */
export function commandLineOf(root, packageName, binName) {
  const manifest = createRequire(join(root, 'package.json')).resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin[binName]);
}

// Child process of extensions.bench.ts: the first skill discovery of a fresh process (as at cli
// startup, where it runs once, cold), timed in the process and printed in milliseconds.
import { discoverSkills } from '@clawsmith/extensions';

const [homeDir, workspaceRoot, cache] = process.argv.slice(2);
const start = performance.now();
const catalog = discoverSkills({
  homeDir: homeDir!,
  workspaceRoot: workspaceRoot!,
  ...(cache === 'off' ? { cache: false } : {}),
});
const elapsed = performance.now() - start;
if (catalog.skills.length === 0) throw new Error('no skill discovered');
console.log(elapsed.toFixed(3));

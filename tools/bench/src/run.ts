// Runs every benchmark (`npm run bench`) or the ones named (`npm run bench -- workspace-fs`).
import { readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const files = readdirSync(import.meta.dirname)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((filter) => name.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error(
    `No benchmark matches ${wanted.join(' ')}; available: ${readdirSync(import.meta.dirname)
      .filter((name) => name.endsWith('.bench.ts'))
      .join(', ')}`,
  );
  process.exit(1);
}
for (const file of files) {
  console.log(`\n# ${file}`);
  await import(`./${file}`);
}

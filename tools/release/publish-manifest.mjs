#!/usr/bin/env node
// Packing helper for every published package (its prepack and postpack scripts): the published
// package.json must not carry the in-repo `@clawsmith/source` export condition, which points at
// sources that resolve only inside this monorepo. `strip` keeps the original bytes beside the
// manifest and writes the published one; `restore` puts the original back. Both act on the
// current folder, or on each package folder named after the action (the packed-consumer check
// strips its 23 staged copies with one process, not one each).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_CONDITION = '@clawsmith/source';
const [action, ...named] = process.argv.slice(2);
const folders = named.length > 0 ? named : ['.'];

function withoutSourceCondition(exportsField) {
  if (typeof exportsField !== 'object' || exportsField === null) return exportsField;
  return Object.fromEntries(
    Object.entries(exportsField)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

function strip(folder) {
  const manifest = join(folder, 'package.json');
  const backup = join(folder, 'package.json.in-repo');
  if (existsSync(backup)) {
    console.error(`${backup} exists: an earlier pack did not finish. Run "node ${process.argv[1]} restore" first.`);
    process.exit(1);
  }
  if (!existsSync(join(folder, 'dist/index.js'))) {
    console.error(`${join(folder, 'dist/index.js')} is missing: run "npm run build" in this package before packing.`);
    process.exit(1);
  }
  const original = readFileSync(manifest, 'utf8');
  const published = JSON.parse(original);
  published.exports = withoutSourceCondition(published.exports);
  delete published.devDependencies;
  delete published.nx;
  writeFileSync(backup, original);
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
}

function restore(folder) {
  const backup = join(folder, 'package.json.in-repo');
  if (existsSync(backup)) renameSync(backup, join(folder, 'package.json'));
}

if (action === 'strip') folders.forEach(strip);
else if (action === 'restore') folders.forEach(restore);
else {
  console.error('usage: publish-manifest.mjs strip|restore [package folder...]');
  process.exit(2);
}

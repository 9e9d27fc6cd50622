#!/usr/bin/env node
// Packing helper for every published package (its prepack and postpack scripts): the published
// package.json must not carry the in-repo `@clawsmith/source` export condition, which points at
// sources that resolve only inside this monorepo. `strip` keeps the original bytes beside the
// manifest and writes the published one; `restore` puts the original back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const SOURCE_CONDITION = '@clawsmith/source';
const manifest = 'package.json';
const backup = 'package.json.in-repo';
const action = process.argv[2];

function withoutSourceCondition(exportsField) {
  if (typeof exportsField !== 'object' || exportsField === null) return exportsField;
  return Object.fromEntries(
    Object.entries(exportsField)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

if (action === 'strip') {
  if (existsSync(backup)) {
    console.error(`${backup} exists: an earlier pack did not finish. Run "node ${process.argv[1]} restore" first.`);
    process.exit(1);
  }
  if (!existsSync('dist/index.js')) {
    console.error('dist/index.js is missing: run "npm run build" in this package before packing.');
    process.exit(1);
  }
  const original = readFileSync(manifest, 'utf8');
  const published = JSON.parse(original);
  published.exports = withoutSourceCondition(published.exports);
  delete published.devDependencies;
  delete published.nx;
  writeFileSync(backup, original);
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  console.error('usage: publish-manifest.mjs strip|restore');
  process.exit(2);
}

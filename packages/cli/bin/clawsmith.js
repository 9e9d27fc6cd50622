#!/usr/bin/env node
// The committed `clawsmith` launcher. npm links a package's bin when it installs it, before any
// build; pointing the bin at this file (rather than at dist/bin.js, which a fresh clone does not
// have yet) lets `npm ci` link `clawsmith` so `npx clawsmith` works once the package is built.
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bin.js', import.meta.url);

try {
  await import(entry.href);
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(fileURLToPath(entry))) {
    process.stderr.write(
      'clawsmith: the command is not built yet; run `npm run build` (or `npm run demo`) in the repository first. [cli_not_built]\n',
    );
    process.exit(1);
  }
  throw error;
}

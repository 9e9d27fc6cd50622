#!/usr/bin/env node
// The `clawsmith` executable: parse the command line, run it, exit with its code.
import { runCli } from './cli-program.js';

// A reader that goes away (`clawsmith sessions | head`) is not a failure of the command: the
// rest of the output is dropped, a read-only command ends normally, and a running turn still
// finishes and is persisted before the process exits.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await runCli(process.argv);

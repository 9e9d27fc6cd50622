#!/usr/bin/env node
// The `clawsmith` executable: parse the command line, run it, exit with its code.
import { runCli } from './cli-program.js';

process.exitCode = await runCli(process.argv);

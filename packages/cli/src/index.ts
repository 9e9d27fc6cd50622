// Everything exported here is the public API of @clawsmith/cli: the command tree (to embed or
// test the `clawsmith` command) and the terminal helpers the command uses. The binary itself is
// `dist/bin.js`.

export { createProgram, runCli } from './cli-program.js';
export { CLI_PERMISSION_MODES, CLI_PROVIDERS } from './options/option-choices.js';
export { EXIT_CODES } from './exit-codes.js';
export type { CliErrorCode } from './cli-errors.js';
export { CLI_ERROR_CODES, CliError, reportError } from './cli-errors.js';
export type { SlashCommand } from './chat/slash-commands.js';
export { SLASH_HELP, parseApprovalAnswer, parseSlashCommand } from './chat/slash-commands.js';
export type { TerminalStyle } from './terminal/terminal-style.js';
export { terminalStyle } from './terminal/terminal-style.js';
export { oneLine, terminalSafe } from './terminal/terminal-text.js';
export { formatTodos, summarizeEvent } from './terminal/event-summary.js';
export type { DemoScript } from './demo/demo-script.js';
export { DEMO_SCRIPT_URL, loadDemoScript } from './demo/demo-script.js';

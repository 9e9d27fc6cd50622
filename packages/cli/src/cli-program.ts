import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { EXIT_CODES } from './exit-codes.js';
import { CLI_PERMISSION_MODES, CLI_PROVIDERS } from './options/option-choices.js';
import { cliPackageFile } from './package-files.js';

// This module is all that `clawsmith --help` loads: commander, this file, the exit codes and the
// lists of choices. Every action imports its implementation (and with it core, the providers, the
// SDKs, SQLite, and zod for its option schema) only when it runs, so help and usage errors start fast.

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(cliPackageFile('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

function homeOption(command: Command): Command {
  return command
    .addOption(
      new Option('--home <dir>', 'clawsmith home folder: database, checkpoints, artifacts (default ~/.clawsmith)').env(
        'CLAWSMITH_HOME',
      ),
    )
    .addOption(
      new Option(
        '--database-url <url>',
        "keep the home's database in PostgreSQL (postgres://user:password@host/db), shared by many machines; artifact bodies stay in the home folder",
      ).env('CLAWSMITH_DATABASE_URL'),
    );
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--allow`, `--ask`, `--deny` and `--settings`: merged after the settings files (see the README). */
function settingsOptions(command: Command): Command {
  return command
    .option('--allow <rule>', 'allow calls this rule matches, e.g. "Bash(npm test:*)" (repeatable)', collect)
    .option('--ask <rule>', 'ask before calls this rule matches (repeatable)', collect)
    .option('--deny <rule>', 'deny calls this rule matches, e.g. "Read(./secrets/**)" (repeatable)', collect)
    .option('--settings <file>', 'also read this settings file, after the user and project ones (repeatable)', collect);
}

function modelOptions(command: Command): Command {
  return settingsOptions(command)
    .option('-w, --workspace <dir>', 'the folder the agent works in', '.')
    .option('--script <file>', 'replay scripted model responses from a JSON file (no API key needed)')
    .addOption(
      new Option('--provider <name>', 'a real model provider').choices(CLI_PROVIDERS).env('CLAWSMITH_PROVIDER'),
    )
    .addOption(new Option('--model <name>', 'the model name, e.g. gpt-4.1 or claude-sonnet-4-5').env('CLAWSMITH_MODEL'))
    .option('--session <id>', 'continue this session instead of starting a new one')
    .option('--system-prompt <text>', 'replace the default instructions (text, or @FILE to read them from a file)')
    .option('--append-system-prompt <text>', 'add to the instructions (text, or @FILE)')
    .addOption(
      new Option('--permission-mode <mode>', 'what runs without asking')
        .choices(CLI_PERMISSION_MODES)
        .default('default'),
    )
    .option(...SUBAGENT_MODEL_OPTION)
    .option(...SUBAGENT_STEPS_OPTION)
    .option(...TRACEPARENT_OPTION)
    .option(
      '--network-allow <domains>',
      'commands reach only these domains (comma-separated, *.example.com for subdomains), through a proxy; refused hosts are listed in the result',
    )
    .option('--web-fetch-allow <domains>', 'web_fetch runs without asking for these domains')
    .option('--web-fetch-deny <domains>', 'web_fetch never fetches these domains')
    .option(
      '--allow-private-network <hosts>',
      'hosts, addresses or CIDR ranges on this machine or its networks that web_fetch and the command proxy may reach (refused by default)',
    )
    .option(
      '--context-window <tokens>',
      "the model's context window (default CLAWSMITH_CONTEXT_WINDOW, then known model families, then 32768)",
    )
    .option('--max-turn-tokens <n>', 'input plus output tokens one turn may use; past it the turn stops (exit 1)')
    .option('--max-session-tokens <n>', 'input plus output tokens the session may use over all its turns');
}

const SUBAGENT_MODEL_OPTION = [
  '--subagent-model <name>',
  "the subagents' model, of the same --provider (default: the run's model)",
] as const;
const SUBAGENT_STEPS_OPTION = [
  '--subagent-max-steps <n>',
  'model requests of a subagent before it stops with subagent_step_limit (default 20)',
] as const;

const TRACEPARENT_OPTION = [
  '--traceparent <value>',
  'continue this W3C trace when OpenTelemetry export is on (default: the TRACEPARENT variable)',
] as const;

type Action = (options: Record<string, unknown>, command: Command, ...operands: string[]) => Promise<number>;

/**
 * How long a command's process lives: `one-shot` commands run once and exit, `serving` ones
 * (chat, web, mcp serve, acp) answer for as long as they are used.
 */
type Lifetime = 'one-shot' | 'serving';

/** Runs a lazily imported action and stores its exit code. */
function lazy(load: () => Promise<Action>, lifetime: Lifetime = 'one-shot') {
  return async (...parameters: unknown[]) => {
    const command = parameters.at(-1) as Command;
    const options = command.opts();
    const operands = parameters
      .slice(0, -2)
      .flatMap((value) => (Array.isArray(value) ? value : value === undefined ? [] : [value])) as string[];
    // The home's opener reads the database URL from the environment, as do the processes a
    // command starts (a background delegation, the web server's turns): the flag is passed on there.
    if (typeof options.databaseUrl === 'string' && options.databaseUrl !== '')
      process.env.CLAWSMITH_DATABASE_URL = options.databaseUrl;
    // Before the action's modules build their schemas: zod reads the setting as each is built.
    if (lifetime === 'one-shot') (await import('./one-shot-parsing.js')).useInterpretedParsers();
    const action = await load();
    process.exitCode = await action(options, command, ...operands);
  };
}

/**
 * The `clawsmith` command tree. Parse with `program.parseAsync(argv)`; actions set
 * `process.exitCode` (see {@link EXIT_CODES}).
 */
export function createProgram(): Command {
  const program = new Command('clawsmith')
    .description(
      'clawsmith: an agent that works in a folder, with every change undoable.\nNo API key? Try `clawsmith demo`.',
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  modelOptions(homeOption(program.command('chat', { isDefault: true })))
    .description('interactive session (the default): streamed text, tool calls, approvals, /undo')
    .addHelpText(
      'after',
      '\nIn the session: /help lists the slash commands; Ctrl-C cancels a turn, a second Ctrl-C exits.',
    )
    .action(lazy(async () => (await import('./chat/chat-command.js')).chatCommand, 'serving'));

  modelOptions(homeOption(program.command('run')))
    .description('run one turn non-interactively and exit (0 when the turn completed)')
    .argument('[prompt]', 'what to ask; read from stdin when omitted and stdin is not a terminal')
    .option('--json', 'print every persisted event as one JSON object per line on stdout, and nothing else')
    .addHelpText('after', '\nExample: clawsmith run --script responses.json --json "tidy the README"')
    .action(lazy(async () => (await import('./commands/run-turn-command.js')).runTurnCommand));

  const sessions = homeOption(program.command('sessions'))
    .description('list sessions, newest first (`sessions delete ID` removes one)')
    .option('--json', 'one JSON object per line')
    .action(lazy(async () => (await import('./commands/store-commands.js')).sessionsCommand));
  homeOption(sessions.command('delete'))
    .description("delete a session's history, restore points and artifacts (the workspace's files are not touched)")
    .argument('<id>', 'the session')
    .option('--json', 'print what was removed as JSON')
    .action(lazy(async () => (await import('./commands/session-delete-command.js')).sessionDeleteCommand));

  homeOption(program.command('gc'))
    .description('apply retention now: prune old and over-quota restore points and artifacts')
    .option('--dry-run', 'change nothing; print what would be removed and kept')
    .option('--json', 'print the figures as one JSON object')
    .action(lazy(async () => (await import('./commands/gc-command.js')).gcCommand));

  homeOption(program.command('checkpoints'))
    .description("list a session's restore points (one per turn)")
    .requiredOption('--session <id>', 'the session')
    .option('--json', 'one JSON object per line')
    .action(lazy(async () => (await import('./commands/store-commands.js')).checkpointsCommand));

  const undo = program.command('undo').description('undo a turn: its files, its conversation, or both; or show a diff');
  for (const scope of ['files', 'session', 'all'] as const) {
    const what = {
      files: 'put back the files the turn and every later turn changed',
      session: 'cut the conversation back to before the turn',
      all: 'both (files are checked first)',
    }[scope];
    homeOption(undo.command(scope))
      .description(what)
      .argument('<turn>', 'turn id, or its number in the session (1 = first)')
      .requiredOption('--session <id>', 'the session')
      .option('--json', 'print the result as JSON')
      .action(lazy(async () => (await import('./commands/store-commands.js')).undoCommand(scope)));
  }
  homeOption(undo.command('diff'))
    .description('show what a turn changed in one file')
    .argument('<turn>', 'turn id, or its number in the session')
    .argument('<path>', 'workspace-relative path')
    .requiredOption('--session <id>', 'the session')
    .action(lazy(async () => (await import('./commands/store-commands.js')).diffCommand));

  homeOption(program.command('fork'))
    .description('copy a session (up to a turn) into a new one; the original is unchanged')
    .argument('<session>', 'the session to fork')
    .option('--at <turn>', 'fork after this turn (id or number); default: all of it')
    .option('--json', 'print the new session as JSON')
    .action(lazy(async () => (await import('./commands/store-commands.js')).forkCommand));

  const web = homeOption(program.command('web'))
    .description('serve the browser UI and HTTP API for this home on 127.0.0.1 (prints a sign-in URL)')
    .option('--port <number>', 'port to listen on (0 picks a free one)', '0')
    .option(
      '--host <address>',
      'address to bind; anything but 127.0.0.1 exposes your agent to the network (a warning is printed)',
      '127.0.0.1',
    )
    .option(
      '--allowed-host <name>',
      'another name the browser may use for this server (repeatable; DNS rebinding protection refuses others)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--script <file>', 'run turns from the page with scripted model responses (no API key needed)')
    .addOption(
      new Option('--provider <name>', 'run turns from the page with a real model provider')
        .choices(CLI_PROVIDERS)
        .env('CLAWSMITH_PROVIDER'),
    )
    .addOption(new Option('--model <name>', 'the model name, e.g. gpt-4.1 or claude-sonnet-4-5').env('CLAWSMITH_MODEL'))
    .addOption(
      new Option('--permission-mode <mode>', 'what turns started from the page run without asking')
        .choices(CLI_PERMISSION_MODES)
        .default('default'),
    )
    .option(...SUBAGENT_MODEL_OPTION)
    .option(...SUBAGENT_STEPS_OPTION);
  settingsOptions(web)
    .addHelpText(
      'after',
      '\nThe URL it prints carries a single-use sign-in code: opening it signs the browser in (an HttpOnly\n' +
        'cookie); it works once, within 10 minutes. Press Enter in the terminal for a new URL.\n' +
        'Programs send "Authorization: Bearer <token>" with the API token set in CLAWSMITH_WEB_TOKEN\n' +
        '(16 to 512 visible ASCII characters; without it the API token is random and never shown).\n' +
        'Without --script or --provider, sessions can be read, restored and forked, but not continued.\n' +
        'Ctrl-C stops the server.\n' +
        'Example: clawsmith web --port 4280 --provider openai --model gpt-4.1',
    )
    .action(lazy(async () => (await import('./commands/web-command.js')).webCommand, 'serving'));

  const lsp = program
    .command('lsp')
    .description(
      "language servers: trust or untrust a workspace's language tooling (its own TypeScript, lsp.json settings)",
    );
  const lspWorkspace = (command: Command) =>
    homeOption(command).option('-w, --workspace <dir>', 'the workspace whose language tooling to trust', '.');
  lspWorkspace(lsp.command('trust'))
    .description("let language servers load the workspace's own tooling as it is now (a change asks again)")
    .action(lazy(async () => (await import('./commands/lsp-trust-commands.js')).lspTrustCommand));
  lspWorkspace(lsp.command('untrust'))
    .description('language servers load nothing from the workspace again')
    .action(lazy(async () => (await import('./commands/lsp-trust-commands.js')).lspUntrustCommand));
  const config = program
    .command('config')
    .description('the effective settings (rules and hooks) of a workspace and where each came from');
  const configWorkspace = (command: Command) =>
    settingsOptions(homeOption(command).option('-w, --workspace <dir>', 'the workspace whose settings to read', '.'));
  configWorkspace(config.command('show', { isDefault: true }))
    .description('print every rule and hook, its source, and whether it applies')
    .option('--json', 'one JSON object per line')
    .action(lazy(async () => (await import('./settings/config-commands.js')).configShowCommand));
  configWorkspace(config.command('trust'))
    .description("trust the project's settings files as they are now (a changed file asks again)")
    .action(lazy(async () => (await import('./settings/config-commands.js')).configTrustCommand));

  const mcp = program
    .command('mcp')
    .description(
      "MCP: list, trust or untrust a project's servers (never started before); sign in to remote ones; serve clawsmith's tools to MCP clients",
    );
  const mcpWorkspace = (command: Command) =>
    homeOption(command).option('-w, --workspace <dir>', 'the workspace whose project servers to use', '.');
  mcpWorkspace(mcp.command('list'))
    .description('configured servers with their scope, transport, trust and tools (starts nothing)')
    .option('--json', 'one JSON object per line')
    .action(lazy(async () => (await import('./mcp/mcp-commands.js')).mcpListCommand));
  mcpWorkspace(mcp.command('trust'))
    .description('trust this exact project entry (a changed entry asks again), then list its tools once')
    .argument('<name>', 'the server name in .clawsmith/mcp.json or .mcp.json')
    .action(lazy(async () => (await import('./mcp/mcp-commands.js')).mcpTrustCommand));
  mcpWorkspace(mcp.command('untrust'))
    .description('forget trust in a project server; it is not started again')
    .argument('<name>', 'the server name')
    .action(lazy(async () => (await import('./mcp/mcp-commands.js')).mcpUntrustCommand));
  mcpWorkspace(mcp.command('login'))
    .description('sign in to a remote server with OAuth in a browser (tokens kept owner-only in the home)')
    .argument('<name>', 'the server name (an entry with "url")')
    .option('--no-browser', 'only print the URL to open (headless machines)')
    .action(lazy(async () => (await import('./mcp/mcp-commands.js')).mcpLoginCommand));
  homeOption(mcp.command('logout'))
    .description("forget a remote server's stored sign-in (its tokens are deleted)")
    .argument('<name>', 'the server name')
    .action(lazy(async () => (await import('./mcp/mcp-commands.js')).mcpLogoutCommand));
  settingsOptions(homeOption(mcp.command('serve')))
    .description("serve clawsmith's tools, with checkpoints and undo, to an MCP client (stdio, or --http)")
    .option('-w, --workspace <dir>', 'the folder the tools work in', '.')
    .addOption(
      new Option('--permission-mode <mode>', 'what runs without asking (asks go to the client)')
        .choices(CLI_PERMISSION_MODES)
        .default('accept-edits'),
    )
    .option('--http', 'Streamable HTTP on 127.0.0.1 (prints the URL and a bearer token) instead of stdio')
    .option('--port <number>', 'with --http: the port (0 picks a free one)', '0')
    .option(
      '--allowed-host <name>',
      'with --http: another name the Host header may carry (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      '\nA desktop client launches it: { "command": "clawsmith", "args": ["mcp", "serve", "--workspace", "/path/to/project"] }',
    )
    .action(lazy(async () => (await import('./mcp/mcp-serve-command.js')).mcpServeCommand, 'serving'));

  settingsOptions(homeOption(program.command('acp')))
    .description('be the agent of an editor that speaks the Agent Client Protocol (Zed and others), over stdio')
    .option('-w, --workspace <dir>', 'the workspace of every session (default: the folder the editor opens)')
    .option('--script <file>', 'replay scripted model responses from a JSON file (no API key needed)')
    .addOption(
      new Option('--provider <name>', 'a real model provider').choices(CLI_PROVIDERS).env('CLAWSMITH_PROVIDER'),
    )
    .addOption(new Option('--model <name>', 'the model name, e.g. gpt-4.1 or claude-sonnet-4-5').env('CLAWSMITH_MODEL'))
    .option('--system-prompt <text>', 'replace the default instructions (text, or @FILE to read them from a file)')
    .option('--append-system-prompt <text>', 'add to the instructions (text, or @FILE)')
    .addOption(
      new Option('--permission-mode <mode>', "a new session's mode (the editor can switch it per session)")
        .choices(CLI_PERMISSION_MODES)
        .default('default'),
    )
    .addHelpText(
      'after',
      '\nAn editor launches it: { "command": "clawsmith", "args": ["acp", "--provider", "openai", "--model", "gpt-4.1"] }',
    )
    .action(lazy(async () => (await import('./acp/acp-command.js')).acpCommand, 'serving'));

  homeOption(program.command('skills'))
    .description('list the skills the agent sees (home, .clawsmith/skills, .agents/skills) and any that are invalid')
    .option('-w, --workspace <dir>', 'the workspace whose skills to include', '.')
    .option('--json', 'one JSON object per line')
    .action(lazy(async () => (await import('./extensions/skills-command.js')).skillsCommand));

  const plugins = program
    .command('plugins')
    .description("plugins that add tools: list them, and trust or untrust a plugin's files (never run before)");
  homeOption(plugins.command('list'))
    .description('the plugins in <home>/plugins.json with their state and tools')
    .option('--json', 'one JSON object per line')
    .action(lazy(async () => (await import('./extensions/plugins-commands.js')).pluginsListCommand));
  homeOption(plugins.command('trust'))
    .description("trust a plugin's files as they are now (a changed plugin asks again); runs none of its code")
    .argument('<plugin>', 'a configured plugin name, a plugin folder, or a package in <home>/plugins/node_modules')
    .option('--always-loaded <tools>', 'comma-separated tool names the model sees without search_tools')
    .action(lazy(async () => (await import('./extensions/plugins-commands.js')).pluginsTrustCommand));
  homeOption(plugins.command('untrust'))
    .description('forget trust in a plugin; it is not loaded again')
    .argument('<name>', 'the plugin name')
    .action(lazy(async () => (await import('./extensions/plugins-commands.js')).pluginsUntrustCommand));

  program
    .command('demo')
    .description('a scripted tour that needs no API key, in a temporary workspace and home')
    .option('--home <dir>', 'keep the demo session in this home instead of a temporary one')
    .option('--keep', 'keep the temporary workspace and home and print where they are')
    .action(lazy(async () => (await import('./demo/demo-command.js')).demoCommand));

  return program;
}

/**
 * Runs the command line (`argv` as in `process.argv`) and returns the exit code. Errors that
 * escape an action are printed on stderr with their code; nothing throws.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  const first = argv[2];
  const names = program.commands.map((command) => command.name());
  if (first !== undefined && !first.startsWith('-') && !names.includes(first)) {
    // `chat` is the default and takes no operand, so a bare first word can only be a command.
    const { closestCommand } = await import('./closest-command.js');
    const suggestion = closestCommand(first, names);
    process.stderr.write(
      `clawsmith: unknown command '${first.slice(0, 60)}'${suggestion ? `; did you mean 'clawsmith ${suggestion}'?` : ''} (clawsmith --help lists the commands)\n`,
    );
    return EXIT_CODES.usage;
  }
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" under exitOverride; commander already printed them.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_CODES.ok;
      return EXIT_CODES.usage;
    }
    const { reportError } = await import('./cli-errors.js');
    return reportError(error);
  }
}

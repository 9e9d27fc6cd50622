import { z } from 'zod';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import { entryExtensions } from '../extensions/extensions-composition.js';
import { tokenFromEnvironment } from '../fixed-token.js';
import { printLoginUrlsOnEnter } from './login-url-keys.js';
import { openAgentRuntime } from './agent-runtime.js';
import { selectProvider } from './provider-selection.js';
import { selectSubagents } from './subagent-options.js';
import { parsePort } from '../options/parse-port.js';
import {
  parseCommandOptions,
  permissionModeOption,
  providerOption,
  repeatedOption,
  settingsFlagsShape,
} from '../options/command-options.js';

/** Options of `clawsmith web`. */
const webOptions = z.object({
  ...settingsFlagsShape,
  home: z.string().optional(),
  host: z.string(),
  port: z.string(),
  allowedHost: repeatedOption.optional(),
  script: z.string().optional(),
  provider: providerOption.optional(),
  model: z.string().optional(),
  permissionMode: permissionModeOption,
  subagentModel: z.string().optional(),
  subagentMaxSteps: z.string().optional(),
});
/** Options of `clawsmith web`. */
export type WebOptions = z.output<typeof webOptions>;

/**
 * `clawsmith web`: the web server on the home's store, on 127.0.0.1 unless `--host` says
 * otherwise (with a warning). Prints a single-use sign-in URL (Enter prints a new one when the
 * terminal is in front) and runs until Ctrl-C, which cancels the turns it runs, ends the streams
 * and closes the database. The API token is `CLAWSMITH_WEB_TOKEN`, else random and never shown.
 */
export async function webCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(webOptions, rawOptions, 'web');
  const port = parsePort(options.port);
  const apiToken = tokenFromEnvironment('CLAWSMITH_WEB_TOKEN');
  const provider =
    options.script !== undefined || options.provider !== undefined ? await selectProvider(options) : undefined;
  const subagents = await selectSubagents(options);
  const [{ ApprovalBroker }, { startWebServer }] = await Promise.all([
    import('@clawsmith/core'),
    import('@clawsmith/web'),
  ]);
  const runtime = await openAgentRuntime({
    home: options.home,
    ...(provider ? { provider } : {}),
    subagents,
    permissionMode: options.permissionMode,
    // The page answers the turns' approvals: the web server finds the broker as core.approvals.
    approvals: new ApprovalBroker(),
    // Each session has its own workspace: skills are listed per turn, skill_view is always loaded.
    extensions: entryExtensions(undefined),
    // Sessions of many workspaces: each turn reads the settings of its session's workspace.
    settings: {
      workspaceRoot: process.cwd(),
      flags: options,
      perSession: true,
      onNotice: (notice) => process.stderr.write(`clawsmith: ${notice}\n`),
    },
  });
  let server;
  try {
    server = await startWebServer({
      core: runtime.core,
      home: runtime.home,
      canRunTurns: provider !== undefined,
      systemPrompt: (session) => runtime.systemPrompt(session.workspaceRoot),
      settingsFor: (session) => runtime.settingsFor(session.workspaceRoot),
      ...(runtime.telemetry.enabled ? { continueTrace: runtime.telemetry.continueTrace } : {}),
      host: options.host,
      port,
      allowedHosts: options.allowedHost ?? [],
      // The page may start new sessions only here, the folder `clawsmith web` was started in.
      workspaces: [process.cwd()],
      ...(apiToken ? { token: apiToken } : {}),
    });
  } catch (error) {
    await runtime.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new CliError(
        'web_listen_failed',
        `Cannot listen on ${options.host}:${port} (${code}); choose another --port or --host.`,
      );
    throw error;
  }
  if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1')
    process.stderr.write(
      `clawsmith web: WARNING: listening on ${options.host}, reachable from other machines; anyone with a sign-in URL or the API token controls your agent.\n`,
    );
  const keys = printLoginUrlsOnEnter(
    process.stdin,
    () => server.createLoginUrl(),
    (text) => process.stdout.write(text),
  );
  process.stdout.write(
    `clawsmith web: serving ${runtime.home.path} at ${server.origin}\n` +
      'Open this URL to sign in (it works once, within 10 minutes; keep it secret):\n' +
      `${server.loginUrl}\n` +
      (keys.active ? 'Press Enter here (with clawsmith web in the foreground) for a new sign-in URL.\n' : '') +
      // A token the person set is theirs already: it is not echoed into logs.
      (apiToken
        ? 'API: Authorization: Bearer <the token in CLAWSMITH_WEB_TOKEN>\n'
        : 'API: programs need CLAWSMITH_WEB_TOKEN set at start to send Authorization: Bearer.\n') +
      (provider
        ? ''
        : 'No model chosen: sessions can be read, restored and forked; start it with --script or --provider to run turns.\n') +
      'Ctrl-C stops the server.\n',
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  keys.stop();
  process.stderr.write('clawsmith web: stopping\n');
  await server.close();
  await runtime.close();
  return EXIT_CODES.ok;
}

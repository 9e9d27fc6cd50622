import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import type { LanguageServerSpec, ServerCommand } from './server-spec.js';

/** The server versions this package is tested with (its optional peer dependencies). */
export const PINNED_SERVER_PACKAGES = Object.freeze({
  'typescript-language-server': '5.3.0',
  typescript: '5.9.3',
  pyright: '1.1.414',
});

const require = createRequire(import.meta.url);

function installHint(packages: readonly (keyof typeof PINNED_SERVER_PACKAGES)[]): string {
  return `npm install -E ${packages.map((name) => `${name}@${PINNED_SERVER_PACKAGES[name]}`).join(' ')}`;
}

/** The folder of an installed npm package, found from this package as Node would; undefined when absent. */
function packageFolder(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

function notInstalled(server: string, packages: readonly (keyof typeof PINNED_SERVER_PACKAGES)[]): LspError {
  return new LspError(
    LSP_ERROR_CODES.serverNotInstalled,
    `The ${server} language server is not installed. Install it beside @clawsmith/lsp with: ${installHint(packages)} (or set "command" for "${server}" in the home's lsp.json).`,
  );
}

function typescriptCommand(): ServerCommand {
  const server = packageFolder('typescript-language-server');
  // Our own typescript is required too: without it the server would fall back to the workspace's.
  if (!server || !tsserverPath()) throw notInstalled('typescript', ['typescript-language-server', 'typescript']);
  return { command: process.execPath, args: [join(server, 'lib', 'cli.mjs'), '--stdio'] };
}

/** Our own `typescript`'s tsserver, the only one that runs until the workspace's tooling is trusted. */
function tsserverPath(): string | undefined {
  const typescript = packageFolder('typescript');
  return typescript ? join(typescript, 'lib', 'tsserver.js') : undefined;
}

function isInside(path: string, folder: string): boolean {
  const relation = relative(folder, path);
  return relation === '' || (!relation.startsWith('..') && !isAbsolute(relation));
}

/**
 * typescript-language-server takes `tsserver.path` first, then the workspace's
 * `node_modules/typescript`, then `tsserver.fallbackPath`. Untrusted, the path is always an
 * absolute one outside the workspace (ours unless the home chose another), and nothing else it
 * could load from the workspace (plugins, a fallback) is passed. Trusted, a project-local
 * TypeScript is used when there is one, ours otherwise.
 */
function typescriptOptionsForTrust(initializationOptions: unknown, trusted: boolean, workspaceRoot: string): unknown {
  const options = { ...((initializationOptions ?? {}) as Record<string, unknown>) };
  const tsserver = { ...((options.tsserver ?? {}) as Record<string, unknown>) };
  const ours = tsserverPath();
  if (trusted) {
    if (tsserver.path === undefined && ours) tsserver.fallbackPath = ours;
  } else {
    const chosen = tsserver.path;
    const safe = typeof chosen === 'string' && isAbsolute(chosen) && !isInside(chosen, workspaceRoot);
    if (!safe) {
      if (!ours) throw notInstalled('typescript', ['typescript-language-server', 'typescript']);
      tsserver.path = ours;
    }
    delete tsserver.fallbackPath;
    const plugins = options.plugins;
    if (Array.isArray(plugins))
      options.plugins = plugins.filter((plugin) => {
        const location = (plugin as { location?: unknown } | null)?.location;
        return typeof location === 'string' && isAbsolute(location) && !isInside(location, workspaceRoot);
      });
  }
  options.tsserver = tsserver;
  return options;
}

function pyrightCommand(): ServerCommand {
  const pyright = packageFolder('pyright');
  if (!pyright) throw notInstalled('python', ['pyright']);
  return { command: process.execPath, args: [join(pyright, 'langserver.index.js'), '--stdio'] };
}

/** The built-in servers: TypeScript/JavaScript through typescript-language-server, Python through pyright. */
export function builtinServers(): LanguageServerSpec[] {
  return [
    {
      id: 'typescript',
      languages: {
        '.ts': 'typescript',
        '.tsx': 'typescriptreact',
        '.mts': 'typescript',
        '.cts': 'typescript',
        '.js': 'javascript',
        '.jsx': 'javascriptreact',
        '.mjs': 'javascript',
        '.cjs': 'javascript',
      },
      command: typescriptCommand,
      initializationOptions: {
        // No syntax-only server: while the project loads it answers from the open file alone (a
        // definition of an import lands on the import), and a half answer reads as a whole one.
        tsserver: { useSyntaxServer: 'never' },
        disableAutomaticTypingAcquisition: true,
        preferences: { includeCompletionsForModuleExports: false },
      },
      diagnostics: 'tsserver',
      forToolingTrust: typescriptOptionsForTrust,
    },
    {
      id: 'python',
      languages: { '.py': 'python', '.pyi': 'python' },
      command: pyrightCommand,
      // pyright registers pull diagnostics right after `initialized`; asking for them by name avoids racing that registration.
      diagnostics: 'pull',
    },
  ];
}

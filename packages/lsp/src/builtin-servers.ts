import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
  if (!server) throw notInstalled('typescript', ['typescript-language-server', 'typescript']);
  return { command: process.execPath, args: [join(server, 'lib', 'cli.mjs'), '--stdio'] };
}

/** Our own `typescript` (never the workspace's: running a repository's node_modules would run its code). */
function tsserverPath(): string | undefined {
  const typescript = packageFolder('typescript');
  return typescript ? join(typescript, 'lib', 'tsserver.js') : undefined;
}

function pyrightCommand(): ServerCommand {
  const pyright = packageFolder('pyright');
  if (!pyright) throw notInstalled('python', ['pyright']);
  return { command: process.execPath, args: [join(pyright, 'langserver.index.js'), '--stdio'] };
}

/** The built-in servers: TypeScript/JavaScript through typescript-language-server, Python through pyright. */
export function builtinServers(): LanguageServerSpec[] {
  const tsserver = tsserverPath();
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
        tsserver: { ...(tsserver ? { path: tsserver } : {}), useSyntaxServer: 'never' },
        disableAutomaticTypingAcquisition: true,
        preferences: { includeCompletionsForModuleExports: false },
      },
      diagnostics: 'tsserver',
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

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import type { LanguageServerSpec } from './server-spec.js';

const extensionSchema = z.string().regex(/^\.[A-Za-z0-9_.+-]{1,32}$/, 'an extension starts with a dot, like ".rs"');

const serverEntrySchema = z
  .object({
    command: z.string().min(1).max(4096).optional(),
    args: z.array(z.string().max(4096)).max(100).optional(),
    extensions: z.record(extensionSchema, z.string().min(1).max(100)).optional(),
    initializationOptions: z.unknown().optional(),
    diagnostics: z.enum(['auto', 'pull', 'tsserver', 'publish']).optional(),
    disabled: z.boolean().optional(),
  })
  .strict();

const configSchema = z
  .object({
    servers: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/), serverEntrySchema).optional(),
    trustedWorkspaceCommands: z.array(z.string().regex(/^[0-9a-f]{64}$/)).optional(),
  })
  .strict();

/** One server's entry in an `lsp.json`. */
export type LspServerConfig = z.infer<typeof serverEntrySchema>;

/**
 * The `lsp.json` format, in the home (`<home>/lsp.json`) and the workspace
 * (`<workspace>/.clawsmith/lsp.json`). The workspace's entries override the home's field by
 * field; a workspace `command` or `args` runs only when the home lists its fingerprint in
 * `trustedWorkspaceCommands` (see {@link workspaceCommandFingerprint}).
 */
export type LspConfig = z.infer<typeof configSchema>;

/** Where the workspace's configuration lives, relative to the workspace. */
export const WORKSPACE_CONFIG_PATH = '.clawsmith/lsp.json';
/** Where the home's configuration lives, relative to the home. */
export const HOME_CONFIG_FILE = 'lsp.json';

/**
 * The fingerprint a person copies into the home's `trustedWorkspaceCommands` to let this
 * workspace run this command: the SHA-256 of the workspace folder, server id, command and args.
 */
export function workspaceCommandFingerprint(
  workspaceRoot: string,
  serverId: string,
  entry: Pick<LspServerConfig, 'command' | 'args'>,
): string {
  return createHash('sha256')
    .update(JSON.stringify([workspaceRoot, serverId, entry.command ?? null, entry.args ?? null]))
    .digest('hex');
}

/** Reads and validates one `lsp.json`; an absent file is an empty configuration. */
export function readLspConfig(file: string): LspConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new LspError(LSP_ERROR_CODES.invalidConfig, `${file} cannot be read: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LspError(LSP_ERROR_CODES.invalidConfig, `${file} is not valid JSON; fix it or remove it.`, {
      cause: error,
    });
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A record key's own message (the extension rule) sits one level down.
    const detail = issue?.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue?.message;
    throw new LspError(
      LSP_ERROR_CODES.invalidConfig,
      `${file} is not a valid lsp configuration: ${issue?.path.join('.') || '(root)'}: ${detail ?? 'invalid'}.`,
    );
  }
  return parsed.data;
}

/** Where the configuration of one workspace comes from. */
export interface ConfigSources {
  /** The clawsmith home, when there is one; its `lsp.json` is trusted. */
  readonly home?: string;
  /** The workspace folder (real path); its `.clawsmith/lsp.json` is repository content. */
  readonly workspaceRoot: string;
  /**
   * Whether the person trusts this workspace's language tooling (`LanguageToolingTrustStore`).
   * Default `false`: the workspace's `initializationOptions` are ignored, and each server's
   * options are adapted so it loads nothing from the workspace.
   */
  readonly trusted?: boolean;
  /** Told, in a sentence for the tool result, about each workspace setting ignored because the tooling is not trusted. */
  readonly onIgnored?: (note: string) => void;
}

function fromEntry(id: string, entry: LspServerConfig, base: LanguageServerSpec | undefined): LanguageServerSpec {
  const command = entry.command;
  const languages = entry.extensions ?? base?.languages;
  if (!languages || Object.keys(languages).length === 0) {
    throw new LspError(
      LSP_ERROR_CODES.invalidConfig,
      `The lsp server "${id}" has no "extensions"; give it a map like {".rs": "rust"}.`,
    );
  }
  if (!command && !base) {
    throw new LspError(
      LSP_ERROR_CODES.invalidConfig,
      `The lsp server "${id}" has no "command"; say which program to run.`,
    );
  }
  return {
    id,
    languages,
    command: command ? () => ({ command, args: entry.args ?? [] }) : base!.command,
    ...(entry.initializationOptions !== undefined
      ? { initializationOptions: entry.initializationOptions }
      : base?.initializationOptions !== undefined
        ? { initializationOptions: base.initializationOptions }
        : {}),
    diagnostics: entry.diagnostics ?? base?.diagnostics ?? 'auto',
    ...(base?.forToolingTrust ? { forToolingTrust: base.forToolingTrust } : {}),
  };
}

function adaptedToTrust(spec: LanguageServerSpec, trusted: boolean, workspaceRoot: string): LanguageServerSpec {
  if (!spec.forToolingTrust) return spec;
  const adapt = spec.forToolingTrust;
  // Resolved when the server starts, so a missing package fails that language only.
  let options: { value: unknown } | undefined;
  return {
    ...spec,
    get initializationOptions() {
      options ??= { value: adapt(spec.initializationOptions, trusted, workspaceRoot) };
      return options.value;
    },
  };
}

/**
 * The servers of one workspace: the built-ins, then the home's entries, then the workspace's,
 * each overriding the one before field by field. Fails closed: a workspace entry that sets
 * `command` or `args` without the home trusting its fingerprint is an `lsp_invalid_config`
 * error, because a repository must not choose what runs on the person's machine.
 */
export function resolveServers(builtins: readonly LanguageServerSpec[], sources: ConfigSources): LanguageServerSpec[] {
  const home = sources.home === undefined ? {} : readLspConfig(join(sources.home, HOME_CONFIG_FILE));
  const workspaceFile = join(sources.workspaceRoot, WORKSPACE_CONFIG_PATH);
  const workspace = readLspConfig(workspaceFile);
  const trusted = new Set(home.trustedWorkspaceCommands ?? []);
  const merged = new Map<string, LspServerConfig>();
  for (const [id, entry] of Object.entries(home.servers ?? {})) merged.set(id, entry);
  const trustedTooling = sources.trusted === true;
  for (const [id, written] of Object.entries(workspace.servers ?? {})) {
    let entry = written;
    if (!trustedTooling && entry.initializationOptions !== undefined) {
      const { initializationOptions: _ignored, ...rest } = entry;
      entry = rest;
      sources.onIgnored?.(
        `The initializationOptions of "${id}" in ${WORKSPACE_CONFIG_PATH} were ignored: this workspace's language tooling is not trusted.`,
      );
    }
    if (entry.command !== undefined || entry.args !== undefined) {
      const fingerprint = workspaceCommandFingerprint(sources.workspaceRoot, id, entry);
      if (!trusted.has(fingerprint)) {
        throw new LspError(
          LSP_ERROR_CODES.invalidConfig,
          `${workspaceFile} asks to run ${JSON.stringify(entry.command ?? '(built-in)')} for "${id}", and a repository cannot choose what runs. If you trust it, add "${fingerprint}" to "trustedWorkspaceCommands" in the home's ${HOME_CONFIG_FILE}; otherwise remove "command" and "args" from that entry.`,
        );
      }
    }
    merged.set(id, { ...merged.get(id), ...entry });
  }
  const byId = new Map(builtins.map((spec) => [spec.id, spec]));
  for (const [id, entry] of merged) {
    if (entry.disabled) byId.delete(id);
    else byId.set(id, fromEntry(id, entry, byId.get(id)));
  }
  return [...byId.values()].map((spec) => adaptedToTrust(spec, trustedTooling, sources.workspaceRoot));
}

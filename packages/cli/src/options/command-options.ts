import { z } from 'zod';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import { CLI_PERMISSION_MODES, CLI_PROVIDERS } from './option-choices.js';

/** `--permission-mode`: one of {@link CLI_PERMISSION_MODES}. */
export const permissionModeOption = z.enum(CLI_PERMISSION_MODES);
/** `--provider`: one of {@link CLI_PROVIDERS}. */
export const providerOption = z.enum(CLI_PROVIDERS);
/** A repeatable flag (`--allow`, `--allowed-host`): every value in the order given. */
export const repeatedOption = z.array(z.string());

/** `--allow`, `--ask`, `--deny` and `--settings`, as every command that reads settings takes them. */
export const settingsFlagsShape = {
  allow: repeatedOption.optional(),
  ask: repeatedOption.optional(),
  deny: repeatedOption.optional(),
  settings: repeatedOption.optional(),
};

// `permissionMode` → `--permission-mode`: the flag as the person typed it.
function flagName(key: PropertyKey | undefined): string {
  return typeof key === 'string' ? `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}` : 'an option';
}

/**
 * The options commander parsed for `clawsmith <commandPath>`, checked against `schema` and typed
 * by it. Keys the schema does not name are dropped, so an action reads only what it declares.
 *
 * @throws {CliError} `invalid_option` (exit code 2, a usage error) naming the flag, what was wrong
 *   and where the accepted values are listed.
 */
export function parseCommandOptions<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  options: Record<string, unknown>,
  commandPath: string,
): z.output<Schema> {
  // Parsed once per process: zod would compile an object parser (`new Function`) for this one
  // parse, which costs more than it saves.
  const parsed = schema.safeParse(options, { jitless: true });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${flagName(issue.path[0])}: ${issue.message}`);
  throw new CliError(
    'invalid_option',
    `Invalid option value for \`clawsmith ${commandPath}\` (${problems.join('; ')}); \`clawsmith ${commandPath} --help\` lists the options and the values they accept.`,
    EXIT_CODES.usage,
  );
}

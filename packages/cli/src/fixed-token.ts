import { CliError } from './cli-errors.js';
import { EXIT_CODES } from './exit-codes.js';

/**
 * A bearer token the person fixed in an environment variable (`CLAWSMITH_MCP_TOKEN`,
 * `CLAWSMITH_WEB_TOKEN`): undefined when unset or empty, else 16 to 512 visible ASCII
 * characters, anything else refused with `invalid_token` (a weak token is never used).
 */
export function tokenFromEnvironment(variable: 'CLAWSMITH_MCP_TOKEN' | 'CLAWSMITH_WEB_TOKEN'): string | undefined {
  const token = process.env[variable];
  if (token === undefined || token === '') return undefined;
  if (!/^[\x21-\x7e]{16,512}$/.test(token))
    throw new CliError(
      'invalid_token',
      `${variable} must be 16 to 512 visible ASCII characters without spaces (for example the output of \`openssl rand -hex 32\`); unset it to get a fresh token.`,
      EXIT_CODES.usage,
    );
  return token;
}

import { MCP_ERROR_CODES, McpError } from '../mcp-errors.js';

// `${VAR}`, `${VAR:-default}`, and the explicit `${env:VAR}` form other clients' files use.
const REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The variable names `text` refers to with `${VAR}`, `${env:VAR}` or `${VAR:-default}`. */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1] as string);
}

/**
 * Replaces `${VAR}`, `${env:VAR}` and `${VAR:-default}` with values from `environment`. A missing variable
 * without a default throws `mcp_env_missing` naming the variable and the server, never a value.
 */
export function expandReferences(text: string, environment: NodeJS.ProcessEnv, serverName: string): string {
  return text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const value = environment[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new McpError(
      MCP_ERROR_CODES.environmentMissing,
      `The MCP server ${JSON.stringify(serverName)} refers to \${${name}}, which is not set in clawsmith's environment. Set ${name} (or give a default: \${${name}:-value}) and start again.`,
    );
  });
}

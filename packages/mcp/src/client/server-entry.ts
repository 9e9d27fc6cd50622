import { TOOL_CAPABILITIES, TOOL_RISKS, type ToolCapability, type ToolRisk } from '@clawsmith/tool-protocol';
import { z } from 'zod';

/** Default time a call may take before it is cancelled on the server. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const toolPolicySchema = z.strictObject({
  risk: z.enum(TOOL_RISKS as [ToolRisk, ...ToolRisk[]]).optional(),
  capabilities: z.array(z.enum(TOOL_CAPABILITIES as [ToolCapability, ...ToolCapability[]])).optional(),
});

const commonFields = {
  /** Trust the server's `readOnlyHint`/`destructiveHint`/`openWorldHint` to set risk. Default false. */
  trustAnnotations: z.boolean().optional(),
  /** Per-tool risk and capabilities, by the server's tool name; the person's word beats any hint. */
  tools: z.record(z.string(), toolPolicySchema).optional(),
  /** Milliseconds a call may take (progress resets it); default 60,000. */
  timeoutMs: z.number().int().positive().max(86_400_000).optional(),
  /** Leave the server out without deleting its entry. */
  disabled: z.boolean().optional(),
};

const stdioEntrySchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...commonFields,
});

const oauthSchema = z.strictObject({
  /** A client id registered with the server's authorization server (skips dynamic registration). */
  clientId: z.string().min(1).optional(),
  /** Its secret, for a confidential client; write it as `${env:NAME}`, never literally. */
  clientSecret: z.string().min(1).optional(),
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope: z.string().min(1).optional(),
  /** An HTTPS URL of a client-id metadata document, used where the authorization server supports them. */
  clientMetadataUrl: z.string().min(1).optional(),
});

const httpEntrySchema = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  /** OAuth settings, or `false` to never sign in (a 401 is then only `mcp_auth_required`). */
  oauth: z.union([oauthSchema, z.literal(false)]).optional(),
  ...commonFields,
});

/** One server entry as a person writes it (the common `mcpServers` shape). */
export const mcpServerEntrySchema = z.union([stdioEntrySchema, httpEntrySchema]);

/** A stdio server: a command clawsmith spawns with the minimal environment plus `env`. */
export type StdioServerEntry = z.output<typeof stdioEntrySchema>;
/** A Streamable HTTP server (falling back to the older SSE transport), or SSE with `type: "sse"`. */
export type HttpServerEntry = z.output<typeof httpEntrySchema>;
/** One server entry as written. Values may hold `${VAR}` references, expanded only at start. */
export type McpServerEntry = StdioServerEntry | HttpServerEntry;
/** OAuth settings of an HTTP entry, as written (values may hold `${env:NAME}` references). */
export type McpOAuthSettings = z.output<typeof oauthSchema>;
/** Per-tool risk and capabilities from the person's configuration. */
export type McpToolPolicy = z.output<typeof toolPolicySchema>;

/** Whether `entry` is a stdio entry. */
export function isStdioEntry(entry: McpServerEntry): entry is StdioServerEntry {
  return typeof (entry as StdioServerEntry).command === 'string';
}

/** The file shape: `{ "mcpServers": { "<name>": entry } }`. Other top-level keys are ignored. */
export const mcpConfigFileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()).optional(),
});

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

const httpEntrySchema = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
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

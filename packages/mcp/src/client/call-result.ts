import {
  toolError,
  toolSuccess,
  type ArtifactWriter,
  type ToolDisplay,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { MCP_ERROR_CODES } from '../mcp-errors.js';

/** One content block of an MCP tool result, as the SDK parses it (unknown kinds are kept as JSON). */
type ContentBlock = { type: string; [key: string]: unknown };

/** The parts of an MCP `CallToolResult` this mapping reads. */
export interface McpCallResult {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

const TEXT_RESOURCE_PREVIEW = 2_000;
const SAFE_MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

function mediaTypeOf(value: unknown, fallback: string): string {
  return typeof value === 'string' && SAFE_MEDIA_TYPE.test(value) && value.length <= 255 ? value : fallback;
}

async function store(
  artifacts: ArtifactWriter | undefined,
  content: string | Uint8Array,
  mediaType: string,
  what: string,
): Promise<string> {
  const size = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
  if (!artifacts) return `[${what}, ${size} bytes: not kept, this session has no artifact store]`;
  const reference = await artifacts.write(content, { mediaType });
  return `[${what}, ${size} bytes: stored as artifact ${reference.id}]`;
}

async function describeBlock(block: ContentBlock, artifacts: ArtifactWriter | undefined): Promise<string> {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
    case 'audio': {
      const mediaType = mediaTypeOf(block.mimeType, 'application/octet-stream');
      const bytes = Buffer.from(typeof block.data === 'string' ? block.data : '', 'base64');
      return store(artifacts, bytes, mediaType, `${block.type} ${mediaType}`);
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      const uri = typeof resource.uri === 'string' ? resource.uri : '(no uri)';
      if (typeof resource.text === 'string') {
        const mediaType = mediaTypeOf(resource.mimeType, 'text/plain; charset=utf-8');
        const reference = await store(artifacts, resource.text, mediaType, `resource ${uri} (${mediaType})`);
        const preview =
          resource.text.length > TEXT_RESOURCE_PREVIEW
            ? `${resource.text.slice(0, TEXT_RESOURCE_PREVIEW)}\n[… preview cut; the whole text is in the artifact]`
            : resource.text;
        return `${reference}\n${preview}`;
      }
      const mediaType = mediaTypeOf(resource.mimeType, 'application/octet-stream');
      const bytes = Buffer.from(typeof resource.blob === 'string' ? resource.blob : '', 'base64');
      return store(artifacts, bytes, mediaType, `resource ${uri} (${mediaType})`);
    }
    case 'resource_link': {
      const name = typeof block.name === 'string' ? block.name : '';
      const uri = typeof block.uri === 'string' ? block.uri : '';
      return `[resource link ${name ? `${name}: ` : ''}${uri}]`;
    }
    default:
      return `[content of type ${JSON.stringify(String(block.type)).slice(0, 60)}: ${JSON.stringify(block).slice(0, 500)}]`;
  }
}

/** Whether every string inside `value` already stands in `text` (a server that wraps its text as `{ content: text }`). */
function stringsWithin(text: string, value: unknown): boolean {
  if (typeof value === 'string') return text.includes(value);
  if (Array.isArray(value)) return value.every((item) => stringsWithin(text, item));
  if (typeof value === 'object' && value !== null)
    return Object.values(value).every((item) => stringsWithin(text, item));
  return false;
}

function sameJson(text: string, value: unknown): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    return JSON.stringify(JSON.parse(trimmed)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * Maps an MCP tool result onto the result protocol: text blocks joined by newlines; images,
 * audio and embedded resources stored as artifacts and referenced in the text; resource links
 * listed; `structuredContent` shown as a `json` display and given to the model (as the content
 * when there is no text, after the text unless the text is that JSON); `isError: true` → status `error`, code `mcp_tool_error`. Large text is left to the
 * host, which externalises it like any tool's output.
 */
export async function mapCallResult(
  result: McpCallResult,
  options: { serverName: string; toolName: string; artifacts?: ArtifactWriter | undefined },
): Promise<ToolExecutionResult> {
  const parts: string[] = [];
  for (const block of result.content ?? []) parts.push(await describeBlock(block, options.artifacts));
  const structured = result.structuredContent;
  let display: ToolDisplay | undefined;
  if (structured !== undefined && structured !== null) {
    display = {
      kind: 'json',
      title: `${options.serverName} · ${options.toolName}`,
      body: JSON.stringify(structured, null, 2),
    };
    const json = JSON.stringify(structured);
    // The model gets the structured result too: as the content when there is no text, and after
    // the text when the text is not already that JSON (servers SHOULD send both; many send prose).
    if (parts.every((part) => part.length === 0)) parts.push(json);
    else if (!parts.some((part) => sameJson(part, structured) || stringsWithin(part, structured)))
      parts.push(`[structured content]\n${json}`);
  }
  const text = parts.filter((part) => part.length > 0).join('\n');
  if (result.isError === true) {
    return toolError(
      MCP_ERROR_CODES.toolError,
      text.length > 0
        ? `The MCP server ${options.serverName} reported an error from ${options.toolName}:\n${text}`
        : `The MCP server ${options.serverName} reported an error from ${options.toolName} without a message.`,
      display ? { display } : undefined,
    );
  }
  return toolSuccess(text.length > 0 ? text : '(the tool returned no content)', display ? { display } : undefined);
}

import type { McpElicitationAnswer, McpElicitationRequest } from '@clawsmith/mcp';
import { oneLine } from '../terminal/terminal-text.js';

/** How the prompt talks to the person: one line out, one line in (null: nobody answered). */
export interface ElicitationTerminal {
  say(text: string): void;
  ask(prompt: string): Promise<string | null>;
}

type FieldSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const?: unknown; title?: string }[];
};

const YES = new Set(['y', 'yes', 'true']);
const NO = new Set(['n', 'no', 'false']);

function choicesOf(field: FieldSchema): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.map(String);
  if (Array.isArray(field.oneOf)) return field.oneOf.map((option) => String(option.const));
  return undefined;
}

/**
 * Puts an MCP server's question (form elicitation) to the person at the terminal: the server's
 * words shown as one line of plain text, then accept or decline, then each field of the flat
 * form (yes/no, a number, one of the choices, or text; an optional field may be left empty).
 * End of input or a cancelled turn is `undefined`: the request is declined with that reason.
 */
export async function askElicitation(
  request: McpElicitationRequest,
  terminal: ElicitationTerminal,
): Promise<McpElicitationAnswer | undefined> {
  terminal.say(`? MCP server ${oneLine(request.server, 40)} asks: ${oneLine(request.message, 300)}`);
  for (;;) {
    const line = await terminal.ask('  Answer? [y]es / [n]o (decline): ');
    if (line === null) return undefined;
    const word = line.trim().toLowerCase();
    if (NO.has(word)) return { action: 'decline' };
    if (YES.has(word)) break;
    terminal.say('  Type y or n.');
  }
  const properties = (request.requestedSchema.properties ?? {}) as Record<string, FieldSchema>;
  const required = new Set(
    Array.isArray(request.requestedSchema.required) ? (request.requestedSchema.required as string[]) : [],
  );
  const content: Record<string, string | number | boolean> = {};
  for (const [name, field] of Object.entries(properties)) {
    const label = oneLine(field.title ?? name, 60);
    const hint = field.description ? ` (${oneLine(field.description, 120)})` : '';
    const choices = choicesOf(field);
    const kind =
      field.type === 'boolean'
        ? ' [y/n]'
        : choices
          ? ` [${choices.map((choice) => oneLine(choice, 40)).join(' / ')}]`
          : field.type === 'number' || field.type === 'integer'
            ? ' (a number)'
            : '';
    for (;;) {
      const line = await terminal.ask(`  ${label}${hint}${kind}${required.has(name) ? '' : ' (optional)'}: `);
      if (line === null) return undefined;
      const text = line.trim();
      if (text === '' && !required.has(name)) break;
      if (field.type === 'boolean') {
        if (YES.has(text.toLowerCase()) || NO.has(text.toLowerCase())) {
          content[name] = YES.has(text.toLowerCase());
          break;
        }
      } else if (choices) {
        if (choices.includes(text)) {
          content[name] = text;
          break;
        }
      } else if (field.type === 'number' || field.type === 'integer') {
        const value = Number(text);
        if (text !== '' && Number.isFinite(value) && (field.type === 'number' || Number.isInteger(value))) {
          content[name] = value;
          break;
        }
      } else if (text !== '') {
        content[name] = line;
        break;
      }
      terminal.say(`  That is not a valid answer for ${label}.`);
    }
  }
  return { action: 'accept', content };
}

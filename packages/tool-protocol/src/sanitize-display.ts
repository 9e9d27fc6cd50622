import { boundText } from './bounded-text.js';
import { redactSecrets } from './redact-secrets.js';
import {
  DEFAULT_DISPLAY_LIMITS,
  TOOL_DISPLAY_KINDS,
  type ToolDisplay,
  type ToolDisplayField,
  type ToolDisplayKind,
  type ToolDisplayLimits,
} from './tool-display.js';

// Terminal escape sequences (CSI, OSC with BEL or ST, other ESC forms) and C0/C1 control
// characters other than tab and newline. Displays are shown in terminals and pages; none of
// these may reach them.
const ESCAPE_SEQUENCES =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Removes terminal escape sequences and control characters (keeps tab and newline). */
export function stripControlSequences(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARACTERS, '');
}

function cleanText(value: unknown, limit: number): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  } catch {
    text = '';
  }
  // Bound before the regular expressions run so their cost is bounded too; bound again after
  // because redaction markers can lengthen the text.
  const preBound = text.length > limit * 2 + 4096 ? text.slice(0, limit * 2 + 4096) : text;
  return boundText(redactSecrets(stripControlSequences(preBound)), limit);
}

function read(object: unknown, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * Returns a display safe to persist and show: an unknown kind becomes `text`, every title, body,
 * label and value is stripped of control sequences, redacted with {@link redactSecrets} and
 * bounded, and the number of fields is capped. Never throws.
 */
export function sanitizeDisplay(display: unknown, limits: Partial<ToolDisplayLimits> = {}): ToolDisplay {
  const bounds = { ...DEFAULT_DISPLAY_LIMITS, ...limits };
  const source = typeof display === 'object' && display !== null ? display : {};
  const kindValue = read(source, 'kind');
  const kind: ToolDisplayKind = (TOOL_DISPLAY_KINDS as readonly unknown[]).includes(kindValue)
    ? (kindValue as ToolDisplayKind)
    : 'text';
  const title = cleanText(read(source, 'title'), bounds.title);
  const bodyValue = read(source, 'body');
  const fieldsValue = read(source, 'fields');
  const fields: ToolDisplayField[] = [];
  if (Array.isArray(fieldsValue)) {
    for (const field of fieldsValue.slice(0, bounds.fields)) {
      if (typeof field !== 'object' || field === null) continue;
      fields.push({
        label: cleanText(read(field, 'label'), bounds.label),
        value: cleanText(read(field, 'value'), bounds.value),
      });
    }
  }
  return {
    kind,
    title,
    ...(bodyValue !== undefined && bodyValue !== null ? { body: cleanText(bodyValue, bounds.body) } : {}),
    ...(fields.length > 0 ? { fields } : {}),
  };
}

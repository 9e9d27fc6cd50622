import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type * as Yaml from 'yaml';
import { extensionsRequire } from '../package-require.js';

/** At most this many bytes of a `SKILL.md` are read to find its front matter. */
export const MAX_FRONT_MATTER_BYTES = 64 * 1024;
/** YAML aliases allowed in front matter; more is refused as an alias bomb. */
export const MAX_FRONT_MATTER_ALIASES = 50;

const FIRST_READ_BYTES = 4 * 1024;

/** Front matter read from a file: its fields, or why it cannot be used and where. */
export type FrontMatter =
  | { readonly ok: true; readonly fields: Readonly<Record<string, unknown>>; readonly lines: readonly string[] }
  | { readonly ok: false; readonly line: number; readonly message: string };

// One buffer for every first read: discovery is synchronous, so no two reads share it at once.
const firstRead = Buffer.allocUnsafe(FIRST_READ_BYTES);
const CLOSING_LINE_START = Buffer.from('\n---');

/**
 * The byte just past the front matter's closing `---` line, or -1 when it is not (yet) in
 * `bytes`. Searching the bytes keeps the body undecoded: only the front matter becomes text. A
 * closing line cut off at the end of an incomplete read does not count (it may go on).
 */
export function frontMatterEnd(bytes: Uint8Array, length: number, complete: boolean): number {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, length);
  let newline = head.indexOf(0x0a);
  while (newline !== -1) {
    const found = head.indexOf(CLOSING_LINE_START, newline);
    if (found === -1) return -1;
    let end = found + CLOSING_LINE_START.length;
    while (end < length && (head[end] === 0x20 || head[end] === 0x09)) end += 1;
    if (end === length) return complete ? length : -1;
    if (head[end] === 0x0a) return end + 1;
    if (head[end] === 0x0d && head[end + 1] === 0x0a) return end + 2;
    newline = found + 1;
  }
  return -1;
}

function opensFrontMatter(bytes: Buffer): boolean {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes[start] === 0x2d && bytes[start + 1] === 0x2d && bytes[start + 2] === 0x2d;
}

function readHead(file: string): { text: string; complete: boolean } {
  // Non-blocking, then checked: a FIFO named SKILL.md must not hang discovery.
  const descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(descriptor).isFile())
      throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTFILE' });
    let buffer = firstRead;
    let length = readSync(descriptor, buffer, 0, buffer.length, 0);
    let end = frontMatterEnd(buffer, length, length < buffer.length);
    if (end === -1 && length === buffer.length && opensFrontMatter(buffer)) {
      // Front matter longer than the first read: read on, but never past the limit (a 100 MB file stays unread).
      const larger = Buffer.alloc(MAX_FRONT_MATTER_BYTES);
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
      while (length < buffer.length) {
        const read = readSync(descriptor, buffer, length, buffer.length - length, length);
        if (read === 0) break;
        length += read;
      }
      end = frontMatterEnd(buffer, length, length < MAX_FRONT_MATTER_BYTES);
    }
    if (end !== -1) return { text: buffer.toString('utf8', 0, end), complete: true };
    return { text: buffer.toString('utf8', 0, length), complete: length < MAX_FRONT_MATTER_BYTES };
  } finally {
    closeSync(descriptor);
  }
}

const PLAIN_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S(?:.*\S)?)[ \t]*$/;
// Values a YAML plain scalar would read as something else, or that need the full parser to judge.
const NOT_PLAIN_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
const NOT_PLAIN_ANYWHERE = /:(\s|$)|\s#|[[\]{}\p{Cc}]/u;
const NOT_A_STRING = /^(true|false|null|~|[-+]?(\.?[0-9].*|\.inf|\.nan))$/i;

/**
 * The common front matter (`key: plain text` lines, comments, blank lines) read without the YAML
 * parser: it costs about 170 µs per file here, and discovery reads every skill at startup. Returns
 * undefined for anything else, which then goes to the full parser; on what it accepts both agree
 * (tested).
 */
export function parsePlainFrontMatter(lines: readonly string[]): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const line of lines) {
    if (line.trim() === '' || /^#/.test(line)) continue;
    const match = PLAIN_LINE.exec(line);
    if (!match) return undefined;
    const [, key, value] = match as unknown as [string, string, string];
    if (NOT_PLAIN_START.test(value) || NOT_PLAIN_ANYWHERE.test(value) || NOT_A_STRING.test(value)) return undefined;
    if (Object.hasOwn(fields, key)) return undefined;
    fields[key] = value;
  }
  return fields;
}

let yaml: typeof Yaml | undefined;

function parseYaml(source: string, firstLine: number): FrontMatter {
  yaml ??= extensionsRequire()('yaml') as typeof Yaml;
  const lineCounter = new yaml.LineCounter();
  const document = yaml.parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const lineOf = (offset: number | undefined) =>
    firstLine + (offset === undefined ? 0 : lineCounter.linePos(offset).line - 1);
  const [error] = document.errors;
  if (error) return { ok: false, line: lineOf(error.pos[0]), message: `invalid YAML: ${error.message.split('\n')[0]}` };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_FRONT_MATTER_ALIASES });
  } catch (error) {
    return {
      ok: false,
      line: firstLine,
      message: `YAML aliases expand too far (${(error as Error).message}); write the values out`,
    };
  }
  if (value === null || value === undefined) return { ok: true, fields: {}, lines: source.split(/\r?\n/) };
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, line: firstLine, message: 'front matter must be a mapping of keys to values' };
  return { ok: true, fields: value as Record<string, unknown>, lines: source.split(/\r?\n/) };
}

/**
 * Reads the YAML front matter at the top of a markdown file (`---` line, YAML, `---` line),
 * reading at most {@link MAX_FRONT_MATTER_BYTES}. Line numbers are 1-based lines of the file.
 * Anchors and aliases beyond {@link MAX_FRONT_MATTER_ALIASES} are refused, not expanded.
 */
export function readFrontMatter(file: string): FrontMatter {
  const { text: raw, complete } = readHead(file);
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  if (!/^---[ \t]*\r?\n/.test(text))
    return { ok: false, line: 1, message: "the file must start with a '---' line opening the YAML front matter" };
  const lines = text.split(/\r?\n/);
  const closing = lines.findIndex((line, index) => index > 0 && /^---[ \t]*$/.test(line));
  // The last line of a cut head may be partial: only a closing line before it counts.
  if (closing === -1 || (!complete && closing === lines.length - 1))
    return {
      ok: false,
      line: 1,
      message: `the front matter is not closed by a '---' line within the first ${MAX_FRONT_MATTER_BYTES / 1024} KiB`,
    };
  const body = lines.slice(1, closing);
  const plain = parsePlainFrontMatter(body);
  if (plain) return { ok: true, fields: plain, lines: body };
  return parseYaml(body.join('\n'), 2);
}

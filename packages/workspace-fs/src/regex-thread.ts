// The regular-expression worker thread's program. A user's expression can backtrack for ever
// (`(a+)+$`) and JavaScript cannot interrupt a running match, so matching runs here, in a thread
// the search can terminate when its time budget runs out. Decoding happens here too, so the main
// thread only reads bytes and moves on to the next batch while this one is matched.
import { isAscii } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import type { RegexHit, RegexThreadRequest } from './regex-worker.js';

/** The expression of the last batch, compiled once for a whole search. */
interface Compiled {
  readonly key: string;
  /** Matches one line. */
  readonly line: RegExp;
  /** Finds the next line that can match in a whole text. */
  readonly scan: RegExp;
}

let compiled: Compiled | undefined;

function compile(source: string, flags: string): Compiled {
  const key = `${flags}/${source}`;
  if (compiled?.key !== key) {
    compiled = { key, line: new RegExp(source, flags), scan: new RegExp(source, `${flags}gm`) };
  }
  return compiled;
}

function preview(line: string, column: number): string {
  const start = Math.max(0, column - 80);
  const end = Math.min(line.length, column + 120);
  return (start > 0 ? '…' : '') + line.slice(start, end).trim() + (end < line.length ? '…' : '');
}

/** Matches one line, adding a hit when it matches; answers the number of hits. */
function matchLine(regex: Compiled, line: string, entry: number, lineNumber: number, hits: RegexHit[]): number {
  const match = regex.line.exec(line);
  if (match) hits.push({ entry, line: lineNumber, preview: preview(line, match.index) });
  return hits.length;
}

/** Matches every line of `text`; true once `hits` holds `limit`. */
function everyLine(regex: Compiled, text: string, entry: number, hits: RegexHit[], limit: number): boolean {
  let start = 0;
  let lineNumber = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNumber += 1;
    if (matchLine(regex, text.slice(start, end), entry, lineNumber, hits) >= limit) return true;
    if (end === text.length) return false;
    start = end + 1;
  }
  return false;
}

/**
 * Same result as {@link everyLine} for an expression that cannot match a line terminator and
 * holds no lookaround or backreference: the whole-text search finds the next line that can
 * match, and only that line is matched on its own.
 */
function candidateLines(regex: Compiled, text: string, entry: number, hits: RegexHit[], limit: number): boolean {
  const { scan } = regex;
  let lineNumber = 1;
  let counted = 0;
  scan.lastIndex = 0;
  while (scan.lastIndex <= text.length) {
    const found = scan.exec(text);
    if (found === null) return false;
    const start = found.index === 0 ? 0 : text.lastIndexOf('\n', found.index - 1) + 1;
    let end = text.indexOf('\n', found.index);
    if (end < 0) end = text.length;
    for (
      let newline = text.indexOf('\n', counted);
      newline >= 0 && newline < start;
      newline = text.indexOf('\n', newline + 1)
    ) {
      lineNumber += 1;
    }
    counted = start;
    if (matchLine(regex, text.slice(start, end), entry, lineNumber, hits) >= limit) return true;
    if (end === text.length) return false;
    scan.lastIndex = end + 1;
  }
  return false;
}

function matchBatch(request: RegexThreadRequest): RegexHit[] {
  const regex = compile(request.source, request.flags);
  const { names, starts, lengths, limit } = request;
  const bytes = Buffer.from(request.buffer);
  const searchText = request.prefilter ? candidateLines : everyLine;
  const hits: RegexHit[] = [];
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index]!;
    if (regex.line.test(name)) {
      hits.push({ entry: index, line: 0, preview: name });
      if (hits.length >= limit) break;
    }
    const length = lengths[index]!;
    if (length < 0) continue;
    const content = bytes.subarray(starts[index], starts[index]! + length);
    // ASCII decodes to the same text either way; as Latin-1 it is a plain copy.
    const text = content.toString(isAscii(content) ? 'latin1' : 'utf8');
    if (searchText(regex, text, index, hits, limit)) break;
  }
  return hits;
}

const port = parentPort!;
port.on('message', (request: RegexThreadRequest) => {
  const hits = matchBatch(request);
  port.postMessage({ hits, buffer: request.buffer }, [request.buffer]);
});

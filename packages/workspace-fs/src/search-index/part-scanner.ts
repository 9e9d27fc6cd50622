// The index thread's trigram scanner: the WebAssembly scan of trigram-scanner-wasm.ts over a
// memory that holds its seen-bitmap, then the found list, then the text of one file, which is read
// straight into that memory. Must stay identical to TrigramCollector (trigrams.ts):
// indexed-search.test.ts holds the stored postings to its output.
import { SCANNER_RESERVED_BYTES, TRIGRAM_SCANNER_WASM } from './trigram-scanner-wasm.js';
import { FOLDABLE } from './trigrams.js';
import { webAssembly } from './wasm-api.js';

const SCANNER_MODULE = new webAssembly.Module(TRIGRAM_SCANNER_WASM);

/** One thread's scanner: trigrams found so far stay in `found` until forgotten. */
export interface PartScanner {
  /** Where a file's text is read to (a view of the scanner's memory). */
  readonly text: Buffer;
  /** The distinct trigrams found since the last `forget`, in the order found. */
  readonly found: Uint32Array;
  /** Scans text[0, length) after the `count` trigrams found so far; returns how many there are now. */
  scan(length: number, count: number): number;
  /** Clears the seen-bits of the first `count` found trigrams. */
  forget(count: number): void;
}

/**
 * A scanner whose text area holds `fileLimit` bytes (at least 64 KiB). A file's trigrams (content,
 * folded copy, name) are each new at most once, so the found list holds the text's length twice
 * plus a name, and never more than 2^24.
 */
export function createScanner(fileLimit: number): PartScanner {
  const textBytes = Math.max(fileLimit, 1 << 16);
  const foundStart = SCANNER_RESERVED_BYTES;
  const foundBytes = 4 * Math.min(2 * textBytes, 1 << 24);
  const textStart = foundStart + foundBytes;
  const memory = new webAssembly.Memory({ initial: Math.ceil((textStart + textBytes) / 65536) });
  const exports = new webAssembly.Instance(SCANNER_MODULE, { env: { memory } }).exports as unknown as {
    scan(text: number, length: number, out: number): number;
    clear(from: number, to: number): void;
  };
  const lower = new Uint8Array(memory.buffer, 0, 256);
  for (let byte = 0; byte < 256; byte += 1) lower[byte] = byte >= 65 && byte <= 90 ? byte + 32 : byte;
  return {
    text: Buffer.from(memory.buffer, textStart, textBytes),
    found: new Uint32Array(memory.buffer, foundStart, foundBytes / 4),
    scan: (length, count) => (exports.scan(textStart, length, foundStart + 4 * count) - foundStart) / 4,
    forget: (count) => exports.clear(foundStart, foundStart + 4 * count),
  };
}

// Replaces the foldable sequences in place (the copy is never longer); returns its length, or -1
// if none occurs (native searches first: almost every text holds none of the three).
function foldInPlace(bytes: Buffer, length: number): number {
  const view = bytes.subarray(0, length);
  if (!FOLDABLE.some((sequence) => view.indexOf(sequence) >= 0)) return -1;
  let used = 0;
  for (let index = 0; index < length; index += 1) {
    const byte = bytes[index]!;
    if (byte === 0xe2 && index + 2 < length && bytes[index + 1] === 0x84 && bytes[index + 2] === 0xaa) {
      bytes[used++] = 0x6b;
      index += 2;
    } else if (byte === 0xc5 && index + 1 < length && bytes[index + 1] === 0xbf) {
      bytes[used++] = 0x73;
      index += 1;
    } else if (byte === 0xc4 && index + 1 < length && bytes[index + 1] === 0xb0) {
      bytes[used++] = 0x69;
      index += 1;
    } else bytes[used++] = byte;
  }
  return used;
}

/** Adds the trigrams of text[0, length) and of its folded copy; returns the count found so far. */
export function scanText(scanner: PartScanner, length: number, count: number): number {
  const found = scanner.scan(length, count);
  const folded = foldInPlace(scanner.text, length);
  return folded < 0 ? found : scanner.scan(folded, found);
}

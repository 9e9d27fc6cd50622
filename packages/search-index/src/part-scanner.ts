// The index thread's trigram scanner: the WebAssembly scan of trigram-scanner-wasm.ts over a
// memory that holds its seen-bitmap, then the text of one file (read straight into that memory),
// then the trigrams found in every file of the part so far, one list after another, which the
// posting lists are sorted from without a copy. Must stay identical to TrigramCollector
// (trigrams.ts): indexed-search.test.ts holds the stored postings to its output.
import { SCANNER_FOLDABLE_OFFSET, SCANNER_RESERVED_BYTES, SCANNER_SEEN_OFFSET } from './trigram-scanner-wasm.js';
import { FOLDABLE } from './trigrams.js';
import { sharedMemory, webAssembly, type WasmMemory } from './wasm-api.js';
import { compiledModules } from './wasm-modules.js';

/** Trigrams in a WebAssembly memory: `count` u32 values from byte `address` on. */
export interface FoundList {
  readonly memory: WasmMemory;
  readonly address: number;
  readonly count: number;
}

const PAGE = 65536;

/**
 * One thread's scanner. Found trigrams are numbered from 0 in the order found; the seen-bits of
 * one file's trigrams must be forgotten before the next file is scanned.
 */
export class PartScanner {
  private readonly memory: WasmMemory;
  private readonly exports: {
    scan(text: number, length: number, out: number): number;
    clear(from: number, to: number): void;
  };
  private readonly textStart = SCANNER_RESERVED_BYTES;
  private readonly foundStart: number;
  /** Where a file's text is read to (a view of the scanner's memory: shared, so it outlives growing). */
  readonly text: Buffer;
  /** Where the last scan left whether its text may hold a foldable sequence. */
  private readonly foldable: Int32Array;

  /** A scanner whose text area holds `fileLimit` bytes (at least 64 KiB). */
  constructor(fileLimit: number) {
    const textBytes = Math.max(fileLimit, 1 << 16);
    this.foundStart = this.textStart + Math.ceil(textBytes / 4) * 4;
    this.memory = sharedMemory(Math.ceil((this.foundStart + 4 * (1 << 20)) / PAGE));
    this.exports = new webAssembly.Instance(compiledModules().scanner, { env: { memory: this.memory } })
      .exports as unknown as PartScanner['exports'];
    this.text = Buffer.from(this.memory.buffer, this.textStart, textBytes);
    this.foldable = new Int32Array(this.memory.buffer, SCANNER_FOLDABLE_OFFSET, 1);
    warmUpFold(this);
  }

  /**
   * Makes room for a file of up to `textBytes` bytes named with `nameBytes` bytes after `at`
   * keys: each of its keys (trigrams and joint grams of the content, folded copy and name) is new
   * at most once.
   */
  makeRoom(at: number, textBytes: number, nameBytes: number): void {
    // At most two keys end at each byte, scanned once more for the folded copy.
    const needed = this.foundStart + 4 * (at + 4 * (textBytes + nameBytes));
    const size = this.memory.buffer.byteLength;
    if (needed <= size) return;
    this.memory.grow(Math.ceil((Math.max(needed, 2 * size) - size) / PAGE));
  }

  /** Scans text[0, length), appending new trigrams after the first `at`; returns the count now. */
  scan(length: number, at: number): number {
    return (this.exports.scan(this.textStart, length, this.foundStart + 4 * at) - this.foundStart) / 4;
  }

  /**
   * Whether the text of the last scan may hold one of the sequences `FOLDABLE`: if not, it folds to
   * itself.
   */
  mayHoldFoldable(): boolean {
    return this.foldable[0] !== 0;
  }

  /** Whether text[0, length) holds a 0 byte (a backwards native search: no view per file). */
  holdsNul(length: number): boolean {
    return length > 0 && this.text.lastIndexOf(0, length - 1) >= 0;
  }

  /**
   * Marks `keys` seen for good: no later scan appends them, and {@link forget} leaves them marked
   * (the build's common keys, which the stored index does not list). Only between files.
   */
  markCommon(keys: Uint32Array): void {
    const seen = new Uint8Array(this.memory.buffer, SCANNER_SEEN_OFFSET, SCANNER_RESERVED_BYTES - SCANNER_SEEN_OFFSET);
    for (const key of keys) seen[key >>> 3]! |= 1 << (key & 7);
  }

  /** Clears the seen-bits of found trigrams [from, to). */
  forget(from: number, to: number): void {
    this.exports.clear(this.foundStart + 4 * from, this.foundStart + 4 * to);
  }

  /** The first `count` trigrams found (a view of the scanner's memory). */
  found(count: number): Uint32Array {
    return new Uint32Array(this.memory.buffer, this.foundStart, count);
  }

  /**
   * The scanner's memory, at least `bytes` long, for work after the last scan (joining the
   * chunks): its pages were touched by the scans and sorts, and a fresh page costs tens of
   * microseconds on a virtual machine. Shared, so a helper thread's join is read where it is. The
   * scanner must not scan again.
   */
  spareMemory(bytes: number): WasmMemory {
    const size = this.memory.buffer.byteLength;
    if (bytes > size) this.memory.grow(Math.ceil((bytes - size) / PAGE));
    return this.memory;
  }

  /** Where the first `count` trigrams found are: the posting sort works on them in place. */
  foundList(count: number): FoundList {
    return { memory: this.memory, address: this.foundStart, count };
  }
}

/** What each of `FOLDABLE` folds to: "k", "s" and "i". */
const FOLDED = [0x6b, 0x73, 0x69];
// Where the next of each foldable sequence starts (reused: a scan allocates nothing per file).
const nextFoldable = new Int32Array(FOLDABLE.length);

// Replaces the foldable sequences in place (the copy is never longer); returns its length, or -1
// if none occurs. Native searches find each sequence and the text between them is moved natively:
// almost every text holds none of the three, and a few large ones hold many. No two sequences
// overlap (none of their later bytes starts one), so this is the left-to-right replacement.
function foldInPlace(bytes: Buffer, length: number): number {
  const view = bytes.subarray(0, length);
  let some = false;
  for (let sequence = 0; sequence < FOLDABLE.length; sequence += 1) {
    const at = view.indexOf(FOLDABLE[sequence]!);
    nextFoldable[sequence] = at < 0 ? length : at;
    some ||= at >= 0;
  }
  if (!some) return -1;
  let read = 0;
  let used = 0;
  for (;;) {
    let sequence = 0;
    for (let other = 1; other < FOLDABLE.length; other += 1) {
      if (nextFoldable[other]! < nextFoldable[sequence]!) sequence = other;
    }
    const at = nextFoldable[sequence]!;
    bytes.copyWithin(used, read, at);
    used += at - read;
    if (at === length) return used;
    bytes[used++] = FOLDED[sequence]!;
    read = at + FOLDABLE[sequence]!.length;
    const next = view.indexOf(FOLDABLE[sequence]!, read);
    nextFoldable[sequence] = next < 0 ? length : next;
  }
}

// A text holding each foldable sequence, scanned a few times by a new scanner: V8 optimizes the
// reading of files early, and a path it has never seen taken (folding, in 41 of the benchmark
// corpus' 27,776 files) then throws that code away and compiles it again when first taken.
const FOLD_SAMPLE = Buffer.from('a\u0130b\u017Fc\u212Ad', 'utf8');
const WARM_UP_SCANS = 16;

function warmUpFold(scanner: PartScanner): void {
  for (let scan = 0; scan < WARM_UP_SCANS; scan += 1) {
    FOLD_SAMPLE.copy(scanner.text, 0);
    scanner.forget(0, scanText(scanner, FOLD_SAMPLE.length, 0));
  }
}

/** Adds the trigrams of text[0, length) and of its folded copy after the first `at`; returns the count now. */
export function scanText(scanner: PartScanner, length: number, at: number): number {
  const found = scanner.scan(length, at);
  if (!scanner.mayHoldFoldable()) return found;
  const folded = foldInPlace(scanner.text, length);
  return folded < 0 ? found : scanner.scan(folded, found);
}

/**
 * The index worker's trigram scanner in WebAssembly: the same scan as `TrigramCollector` in
 * trigrams.ts (three bytes, ASCII letters lowered, and the hashed quadgram of every four bytes,
 * case kept; each distinct key once until cleared), in
 * a form that runs about twice as fast as the JavaScript loop (no bounds check per byte; measured
 * on the benchmark corpus). A test holds its output to `TrigramCollector`'s.
 *
 * Memory (imported as `env.memory`, owned by the caller):
 * - bytes 0-255: the lowering table, `LOWER[byte]`, bytes 256-511 the word classes and 512-575
 *   the joints (trigrams.ts), written by the caller with {@link writeScannerTables};
 * - from `SCANNER_SEEN_OFFSET`, 2 MiB: one bit per trigram, all zero between files;
 * - from `SCANNER_RESERVED_BYTES` on: the caller's found list (`u32` each) and text.
 */
import {
  JOINT_GRAM_HASH_MULTIPLIER,
  JOINT_GRAM_KEY_BASE,
  JOINTS,
  QUADGRAM_HASH_MULTIPLIER,
  QUADGRAM_KEY_BASE,
  WORD_CLASS,
} from './trigrams.js';
import { assembleModule, wasm, type WasmFunction } from './wasm-assembler.js';

const WORD_CLASS_OFFSET = 256;
const JOINTS_OFFSET = 512;

/** Writes the tables the scanner reads (lowering, word classes, joints) at the start of `memory`. */
export function writeScannerTables(memory: Uint8Array): void {
  for (let byte = 0; byte < 256; byte += 1) memory[byte] = byte >= 65 && byte <= 90 ? byte + 32 : byte;
  memory.set(WORD_CLASS, WORD_CLASS_OFFSET);
  memory.set(JOINTS, JOINTS_OFFSET);
}

/** Where the seen-bitmap starts. */
export const SCANNER_SEEN_OFFSET = 1024;
/** Bytes of memory the scanner itself uses; the caller's areas start here. */
export const SCANNER_RESERVED_BYTES = SCANNER_SEEN_OFFSET + (1 << 21);

const {
  localGet,
  localSet,
  localTee,
  i32Const,
  i32Load,
  i32Load8U,
  i32Store,
  i32Store8,
  i32Eqz,
  i32Ne,
  i32LtU,
  i32GeU,
  i32Add,
  i32And,
  i32Or,
  i32Shl,
  i32ShrU,
  i32Mul,
  i32Xor,
} = wasm;

// scan(text, length, out) -> out: appends each key of text[0, length) not yet seen (every
// lowered trigram, the hashed exact-case quadgram of every four bytes, and the hashed joint gram of
// every eight bytes with a joint in the middle), as a u32 at out, out + 4, ...; returns
// the address after the last one appended.
const TEXT = 0;
const LENGTH = 1;
const OUT = 2;
const END = 3;
const TRIGRAM = 4;
const SLOT = 5;
const SEEN_BYTE = 6;
const BIT = 7;
const QUAD = 8;
const FOURTH = 9;
const KEY = 10;
const HIGH = 11;
const EIGHTH = 12;

// Appends the key in local KEY unless seen, and marks it seen.
const appendIfNew: (readonly number[])[] = [
  // seenByte = SEEN[key >>> 3]; bit = 1 << (key & 7)
  localGet(KEY),
  i32Const(3),
  i32ShrU,
  localTee(SLOT),
  i32Load8U(SCANNER_SEEN_OFFSET),
  localTee(SEEN_BYTE),
  i32Const(1),
  localGet(KEY),
  i32Const(7),
  i32And,
  i32Shl,
  localTee(BIT),
  i32And,
  i32Eqz,
  wasm.if,
  localGet(SLOT),
  localGet(SEEN_BYTE),
  localGet(BIT),
  i32Or,
  i32Store8(SCANNER_SEEN_OFFSET),
  localGet(OUT),
  localGet(KEY),
  i32Store(0),
  localGet(OUT),
  i32Const(4),
  i32Add,
  localSet(OUT),
  wasm.end,
];

const scan: WasmFunction = {
  name: 'scan',
  params: 3,
  results: 1,
  locals: 10,
  body: [
    // Fewer than three bytes hold no trigram.
    localGet(LENGTH),
    i32Const(3),
    i32LtU,
    wasm.if,
    localGet(OUT),
    wasm.return,
    wasm.end,
    // end = text + length; trigram = LOWER[text[0]] << 8 | LOWER[text[1]]; quad = text[0] << 8 | text[1]; text += 2
    localGet(TEXT),
    localGet(LENGTH),
    i32Add,
    localSet(END),
    localGet(TEXT),
    i32Load8U(0),
    i32Load8U(0),
    i32Const(8),
    i32Shl,
    localGet(TEXT),
    i32Load8U(1),
    i32Load8U(0),
    i32Or,
    localSet(TRIGRAM),
    localGet(TEXT),
    i32Load8U(0),
    i32Const(8),
    i32Shl,
    localGet(TEXT),
    i32Load8U(1),
    i32Or,
    localSet(QUAD),
    localGet(TEXT),
    i32Const(2),
    i32Add,
    localTee(TEXT),
    // The first quadgram ends at the fourth byte.
    i32Const(1),
    i32Add,
    localTee(FOURTH),
    // The first joint gram ends at the eighth byte.
    i32Const(4),
    i32Add,
    localSet(EIGHTH),
    wasm.loop,
    // high = high << 8 | quad >>> 24 (the four bytes before the quadgram's, once there are eight)
    localGet(HIGH),
    i32Const(8),
    i32Shl,
    localGet(QUAD),
    i32Const(24),
    i32ShrU,
    i32Or,
    localSet(HIGH),
    // quad = quad << 8 | *text; key = trigram = (trigram << 8 | LOWER[*text]) & 0xffffff
    localGet(QUAD),
    i32Const(8),
    i32Shl,
    localGet(TEXT),
    i32Load8U(0),
    localTee(KEY),
    i32Or,
    localSet(QUAD),
    localGet(TRIGRAM),
    i32Const(8),
    i32Shl,
    localGet(KEY),
    i32Load8U(0),
    i32Or,
    i32Const(0xffffff),
    i32And,
    localTee(TRIGRAM),
    localSet(KEY),
    ...appendIfNew,
    // From the fourth byte on: key = BASE + ((h ^ h >>> 16) >>> 12), h = quad * MULTIPLIER
    localGet(TEXT),
    localGet(FOURTH),
    i32GeU,
    wasm.if,
    localGet(QUAD),
    i32Const(QUADGRAM_HASH_MULTIPLIER | 0),
    i32Mul,
    localTee(KEY),
    localGet(KEY),
    i32Const(16),
    i32ShrU,
    i32Xor,
    i32Const(12),
    i32ShrU,
    i32Const(QUADGRAM_KEY_BASE),
    i32Add,
    localSet(KEY),
    ...appendIfNew,
    wasm.end,
    // From the eighth byte on, if JOINTS[CLASS[high & 255] << 3 | CLASS[quad >>> 24]]:
    // key = BASE + ((h ^ h >>> 16) >>> 13), h = (high ^ quad * MULTIPLIER) * JOINT_MULTIPLIER
    localGet(TEXT),
    localGet(EIGHTH),
    i32GeU,
    wasm.if,
    localGet(HIGH),
    i32Const(255),
    i32And,
    i32Load8U(WORD_CLASS_OFFSET),
    i32Const(3),
    i32Shl,
    localGet(QUAD),
    i32Const(24),
    i32ShrU,
    i32Load8U(WORD_CLASS_OFFSET),
    i32Or,
    i32Load8U(JOINTS_OFFSET),
    wasm.if,
    localGet(HIGH),
    localGet(QUAD),
    i32Const(QUADGRAM_HASH_MULTIPLIER | 0),
    i32Mul,
    i32Xor,
    i32Const(JOINT_GRAM_HASH_MULTIPLIER | 0),
    i32Mul,
    localTee(KEY),
    localGet(KEY),
    i32Const(16),
    i32ShrU,
    i32Xor,
    i32Const(13),
    i32ShrU,
    i32Const(JOINT_GRAM_KEY_BASE),
    i32Add,
    localSet(KEY),
    ...appendIfNew,
    wasm.end,
    wasm.end,
    // while (++text !== end)
    localGet(TEXT),
    i32Const(1),
    i32Add,
    localTee(TEXT),
    localGet(END),
    i32Ne,
    wasm.brIf(0),
    wasm.end,
    localGet(OUT),
  ],
};

// clear(from, to): forgets the trigrams listed as u32 in [from, to), so the bitmap is all zero
// again for the next file (cheaper than zeroing 2 MiB).
const FROM = 0;
const TO = 1;
const clear: WasmFunction = {
  name: 'clear',
  params: 2,
  results: 0,
  locals: 0,
  body: [
    localGet(FROM),
    localGet(TO),
    i32GeU,
    wasm.if,
    wasm.return,
    wasm.end,
    wasm.loop,
    localGet(FROM),
    i32Load(0),
    i32Const(3),
    i32ShrU,
    i32Const(0),
    i32Store8(SCANNER_SEEN_OFFSET),
    localGet(FROM),
    i32Const(4),
    i32Add,
    localTee(FROM),
    localGet(TO),
    i32Ne,
    wasm.brIf(0),
    wasm.end,
  ],
};

/** The scanner module's bytes (exports `scan` and `clear`; imports `env.memory`). */
export const TRIGRAM_SCANNER_WASM: Uint8Array = assembleModule(Math.ceil(SCANNER_RESERVED_BYTES / 65536), [
  scan,
  clear,
]);

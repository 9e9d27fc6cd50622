/**
 * The index worker's trigram scanner in WebAssembly: the same scan as `TrigramCollector` in
 * trigrams.ts (three bytes, ASCII letters lowered, and the hashed joint gram of eight bytes around
 * a word joint, case kept; each distinct key once until cleared). The keys of 16 positions are
 * worked out at once with SIMD instructions and then tested against the seen-bitmap one by one.
 * Tests hold its output (each key once, in any order) to the definition and to `TrigramCollector`.
 *
 * Memory (imported as `env.memory`, owned by the caller):
 * - bytes 0-223: the scan's scratch area (the keys of 16 positions, and their bitmap words);
 * - bytes 224-227 (`SCANNER_FOLDABLE_OFFSET`): after a scan, 0 if the text holds none of the
 *   sequences case-insensitive matching folds to ASCII (`FOLDABLE`), else not 0;
 * - from `SCANNER_SEEN_OFFSET`, 2 MiB: one bit per key, between files set only for the common
 *   keys (`PartScanner.markCommon`), which a scan therefore never appends;
 * - from `SCANNER_RESERVED_BYTES` on: the caller's text and found list (`u32` each).
 */
import { JOINT_GRAM_HASH_MULTIPLIER, JOINT_GRAM_KEY_BASE, JOINT_GRAM_LOW_MULTIPLIER } from './trigrams.js';
import { assembleModule, simd128, wasm, type WasmFunction } from './wasm-assembler.js';

/** Where a scan leaves whether its text may hold a foldable sequence (an `i32`: 0 if not). */
export const SCANNER_FOLDABLE_OFFSET = 224;
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
} = wasm;

// scan(text, length, out) -> out: appends each key of text[0, length) not yet seen (every
// lowered trigram, and the hashed joint gram of every eight bytes with a joint in the middle), as
// a u32 at out, out + 4, ...; returns the address after the last one appended. The trigrams ending
// at 16 positions, and which positions end a joint gram, are worked out at once with SIMD
// instructions into the scratch area, then tested and appended one by one: the round's trigrams,
// then the joint gram of each position that ends one (in the last round, fewer than 16 positions,
// all 16 joint grams are worked out at once and one position's keys follow another's). It
// reads up to 32 bytes past the text's end and 5 before its start (the found list follows the
// text, the seen-bitmap precedes it); keys of those bytes are never appended.
const TEXT = 0;
const LENGTH = 1;
const OUT = 2;
const END = 3;
/** The address of the key's 32-bit word of the seen-bitmap, from SCANNER_SEEN_OFFSET. */
const SLOT = 4;
const SEEN_WORD = 5;
const KEY = 6;
/** 4 * the positions of this round to test (16, or fewer at the end). */
const STOP = 7;
/** Where the 16 positions of a round end their keys: the address of the first one's last byte. */
const POSITION = 8;
/** 4 * the position being tested within the round. */
const INDEX = 9;
/** POSITION - 7: every vector is loaded at a constant offset from it. */
const BASE = 10;
/** In a round of 16 positions, bit n: whether position n ends a joint gram not yet tested. */
const JOINT_MASK = 11;
const LOWERED = 12;
const LOWERED_NEXT = 13;
const FROM_THIRD = 14;
const FROM_THIRD_NEXT = 15;
const FROM_SEVENTH = 16;
const FROM_SEVENTH_NEXT = 17;
const FROM_FOURTH = 18;
/** The joint gram's last four bytes times JOINT_GRAM_LOW_MULTIPLIER. */
const LOW_PRODUCT = 19;
const JOINT_PRODUCT = 20;
/** Four trigrams of a round. */
const TRIGRAMS = 21;
/** The eight bytes of one joint gram, big-endian in lanes 0 and 1. */
const JOINT_BYTES = 22;
/** The bytes from POSITION - 1 (each following its byte in LOWERED). */
const FROM_FIRST = 23;
/** Bytes n set where a foldable sequence's first two bytes start, in any round so far. */
const FOLDABLE_PAIRS = 24;

// The scratch area: 16 keys of each kind, for each position whether it ends a joint gram (0xff)
// or not (0), and the seen-bitmap word of each trigram.
const TRIGRAMS_AT = 0;
const JOINT_GRAMS_AT = TRIGRAMS_AT + 64;
const JOINTS_AT = JOINT_GRAMS_AT + 64;
const TRIGRAM_WORDS_AT = JOINTS_AT + 32;

// The seen-bitmap is read a 32-bit word at a time: a WebAssembly shift counts modulo 32, as x64's
// does, so testing the word's bit needs no mask (with the byte and 1 << (key & 7), the test took a
// third more instructions). Little-endian, bit k & 31 of the word at (k >>> 5) * 4 is bit k & 7 of
// byte k >>> 3, so the bitmap is the same either way.

// Appends the key in local KEY unless seen, and marks it seen; its bitmap word's address is in SLOT.
function appendIfNewAtSlot(): (readonly number[])[] {
  return [
    // test (seenWord >>> key) & 1
    localGet(SLOT),
    i32Load(SCANNER_SEEN_OFFSET),
    localTee(SEEN_WORD),
    localGet(KEY),
    i32ShrU,
    i32Const(1),
    i32And,
    i32Eqz,
    wasm.if,
    localGet(SLOT),
    localGet(SEEN_WORD),
    i32Const(1),
    localGet(KEY),
    i32Shl,
    i32Or,
    i32Store(SCANNER_SEEN_OFFSET),
    localGet(OUT),
    localGet(KEY),
    i32Store(0),
    localGet(OUT),
    i32Const(4),
    i32Add,
    localSet(OUT),
    wasm.end,
  ];
}

// Appends the key in local KEY unless seen, and marks it seen.
const appendIfNew: (readonly number[])[] = [
  // slot = (key >>> 5) * 4
  localGet(KEY),
  i32Const(3),
  i32ShrU,
  i32Const(-4),
  i32And,
  localSet(SLOT),
  ...appendIfNewAtSlot(),
];

// Byte n of vector `local` after lowering ASCII letters: x | (x in ['A', 'Z']) & 0x20.
const loadLowered = (local: number, offset: number) => [
  localGet(BASE),
  simd128.load(offset),
  localTee(local),
  localGet(local),
  ...inRange(65, 26),
  simd128.splatByte(0x20),
  simd128.and,
  simd128.or,
  localSet(local),
];

const loadBytes = (local: number, offset: number) => [localGet(BASE), simd128.load(offset), localSet(local)];

/** Lane k of group `group` (positions 4 * group + k) takes bytes 4 * group + k + 3, 2, 1, 0 (big-endian in the lane). */
const wordLanes = (group: number) =>
  [0, 1, 2, 3].flatMap((lane) => [3, 2, 1, 0].map((byte) => 4 * group + lane + byte));

/** As {@link wordLanes} for three bytes (+ 2, 1, 0), the lane's top byte masked off afterwards. */
const trigramLanes = (group: number) =>
  [0, 1, 2, 3].flatMap((lane) => [2, 1, 0].map((byte) => 4 * group + lane + byte).concat(0));

/**
 * Whether each byte of the vector on the stack is in [low, low + count): 0xff or 0. Moved so that
 * `low` becomes -128, it is a signed comparison with -128 + count, one x64 instruction (an
 * unsigned one is three or four).
 */
const inRange = (low: number, count: number) => [
  simd128.splatByte(0x80 - low),
  simd128.i8x16Add,
  simd128.splatByte(count - 0x80),
  simd128.i8x16LtS,
];

// The keys ending at POSITION + 0 ... 15 into the scratch area, in three steps: the trigrams, the
// joint test of each position, and the joint grams (worked out only for a round with a joint when
// 16 positions are left). The vectors are the bytes from POSITION - 2 (lowered, for trigrams), - 3
// (a joint gram's last four bytes), - 7 (its first four) and - 4 (the byte before a joint), each
// followed by the next 16, all loaded at a constant offset from BASE.
const trigramsOfSixteen: (readonly number[])[] = [
  localGet(POSITION),
  i32Const(7),
  wasm.i32Sub,
  localSet(BASE),
  ...loadLowered(LOWERED, 5),
  ...loadLowered(LOWERED_NEXT, 21),
  ...[0, 1, 2, 3].flatMap((group) => [
    // trigram = lowered bytes -2, -1, 0 of the position, big-endian
    i32Const(0),
    localGet(LOWERED),
    localGet(LOWERED_NEXT),
    simd128.shuffle(trigramLanes(group)),
    simd128.splatI32(0xffffff),
    simd128.and,
    localTee(TRIGRAMS),
    simd128.store(TRIGRAMS_AT + 16 * group),
    // their bitmap words: (trigram >>> 5) * 4
    i32Const(0),
    localGet(TRIGRAMS),
    i32Const(3),
    simd128.i32x4ShrU,
    simd128.splatI32(-4),
    simd128.and,
    simd128.store(TRIGRAM_WORDS_AT + 16 * group),
  ]),
];

// A joint between the fourth and fifth byte of eight (bytes -4 and -3 of the position): a
// lower-case letter or digit then an upper-case letter, or '_' on one side only (JOINTS).
const jointsOfSixteen: (readonly number[])[] = [
  ...loadBytes(FROM_THIRD, 4),
  ...loadBytes(FROM_FOURTH, 3),
  i32Const(0),
  localGet(FROM_FOURTH),
  ...inRange(97, 26),
  localGet(FROM_FOURTH),
  ...inRange(48, 10),
  simd128.or,
  localGet(FROM_THIRD),
  ...inRange(65, 26),
  simd128.and,
  localGet(FROM_FOURTH),
  simd128.splatByte(95),
  simd128.i8x16Eq,
  localGet(FROM_THIRD),
  simd128.splatByte(95),
  simd128.i8x16Eq,
  simd128.xor,
  simd128.or,
  simd128.store(JOINTS_AT),
];

// After jointsOfSixteen (which loads FROM_THIRD).
const jointGramsOfSixteen: (readonly number[])[] = [
  ...loadBytes(FROM_THIRD_NEXT, 20),
  ...loadBytes(FROM_SEVENTH, 0),
  ...loadBytes(FROM_SEVENTH_NEXT, 16),
  ...[0, 1, 2, 3].flatMap((group) => [
    // joint gram key = BASE + ((h ^ h >>> 16) >>> 13), h = (high ^ low * LOW_MULTIPLIER) * HASH_MULTIPLIER
    localGet(FROM_THIRD),
    localGet(FROM_THIRD_NEXT),
    simd128.shuffle(wordLanes(group)),
    simd128.splatI32(JOINT_GRAM_LOW_MULTIPLIER),
    simd128.i32x4Mul,
    localSet(LOW_PRODUCT),
    i32Const(0),
    localGet(FROM_SEVENTH),
    localGet(FROM_SEVENTH_NEXT),
    simd128.shuffle(wordLanes(group)),
    localGet(LOW_PRODUCT),
    simd128.xor,
    simd128.splatI32(JOINT_GRAM_HASH_MULTIPLIER),
    simd128.i32x4Mul,
    localTee(JOINT_PRODUCT),
    localGet(JOINT_PRODUCT),
    i32Const(16),
    simd128.i32x4ShrU,
    simd128.xor,
    i32Const(13),
    simd128.i32x4ShrU,
    simd128.splatI32(JOINT_GRAM_KEY_BASE),
    simd128.i32x4Add,
    simd128.store(JOINT_GRAMS_AT + 16 * group),
  ]),
];

// The joint gram ending at the round's position of JOINT_MASK's lowest set bit into KEY, on its own:
// a third of the rounds hold a joint, and those mostly one or two, so working out all 16 positions'
// joint grams at once cost more than this per joint. Its eight bytes start at BASE + that bit:
// lane 0 takes the first four big-endian, lane 1 the last four.
const jointGramAt: (readonly number[])[] = [
  localGet(BASE),
  localGet(JOINT_MASK),
  wasm.i32Ctz,
  i32Add,
  simd128.load(0),
  localTee(JOINT_BYTES),
  localGet(JOINT_BYTES),
  simd128.shuffle([3, 2, 1, 0, 7, 6, 5, 4, 0, 0, 0, 0, 0, 0, 0, 0]),
  localTee(JOINT_BYTES),
  simd128.i32x4ExtractLane(1),
  i32Const(JOINT_GRAM_LOW_MULTIPLIER),
  wasm.i32Mul,
  localGet(JOINT_BYTES),
  simd128.i32x4ExtractLane(0),
  wasm.i32Xor,
  i32Const(JOINT_GRAM_HASH_MULTIPLIER),
  wasm.i32Mul,
  localTee(KEY),
  localGet(KEY),
  i32Const(16),
  i32ShrU,
  wasm.i32Xor,
  i32Const(13),
  i32ShrU,
  i32Const(JOINT_GRAM_KEY_BASE),
  i32Add,
  localSet(KEY),
];

// The first two bytes of each sequence FOLDABLE (trigrams.ts) holds: U+0130, U+017F, U+212A in UTF-8.
const FOLDABLE_PAIR_BYTES = [
  [0xc4, 0xb0],
  [0xc5, 0xbf],
  [0xe2, 0x84],
] as const;

// Marks in FOLDABLE_PAIRS where the pairs of bytes starting at POSITION - 2 ... POSITION + 13 are
// a foldable sequence's first two: the scan tells its caller whether to fold the text and scan it
// again, which almost no text needs (41 of the benchmark corpus' 27,776 files), instead of three
// native searches of every text. LOWERED serves as the first bytes: lowering leaves bytes of 0x80
// and above as they are. Pairs of bytes outside the text only make the caller look for nothing.
const foldablePairsOfSixteen: (readonly number[])[] = [
  ...loadBytes(FROM_FIRST, 6),
  localGet(FOLDABLE_PAIRS),
  ...FOLDABLE_PAIR_BYTES.flatMap(([first, second]) => [
    localGet(LOWERED),
    simd128.splatByte(first),
    simd128.i8x16Eq,
    localGet(FROM_FIRST),
    simd128.splatByte(second),
    simd128.i8x16Eq,
    simd128.and,
    simd128.or,
  ]),
  localSet(FOLDABLE_PAIRS),
];

// After the last round: whether any round marked a pair, or the text's last two bytes are one (the
// rounds' pairs end at the last round's POSITION + 14, which can be the text's last byte but one).
const storeFoldable: (readonly number[])[] = [
  i32Const(0),
  localGet(FOLDABLE_PAIRS),
  simd128.i8x16Bitmask,
  localGet(END),
  i32Const(2),
  wasm.i32Sub,
  wasm.i32Load16U(0),
  localSet(KEY),
  ...FOLDABLE_PAIR_BYTES.flatMap(([first, second]) => [
    localGet(KEY),
    // little-endian: the first byte is the low one
    i32Const(first | (second << 8)),
    wasm.i32Eq,
    i32Or,
  ]),
  i32Store(SCANNER_FOLDABLE_OFFSET),
];

/** Loads the key of kind `at` (a scratch array) for the position at INDEX into KEY. */
const keyAt = (at: number) => [localGet(INDEX), i32Load(at), localSet(KEY)];

// A round of all 16 positions, unrolled: each trigram and its bitmap word from their constant places
// in the scratch area (no index to count, no branch to loop), then the joint gram of each position
// whose bit is set in JOINT_MASK, worked out there (few: no branch per position for them). The
// keys of a file are then found in another order than one position at a time, but each once: the
// posting sort orders them.
const fullRound: (readonly number[])[] = [
  ...Array.from({ length: 16 }, (_, position) => [
    i32Const(0),
    i32Load(TRIGRAMS_AT + 4 * position),
    localSet(KEY),
    i32Const(0),
    i32Load(TRIGRAM_WORDS_AT + 4 * position),
    localSet(SLOT),
    ...appendIfNewAtSlot(),
  ]).flat(),
  i32Const(0),
  simd128.load(JOINTS_AT),
  simd128.i8x16Bitmask,
  localSet(JOINT_MASK),
  wasm.block,
  wasm.loop,
  localGet(JOINT_MASK),
  i32Eqz,
  wasm.brIf(1),
  ...jointGramAt,
  ...appendIfNew,
  // The lowest bit set, cleared.
  localGet(JOINT_MASK),
  localGet(JOINT_MASK),
  i32Const(1),
  wasm.i32Sub,
  i32And,
  localSet(JOINT_MASK),
  wasm.br(0),
  wasm.end,
  wasm.end,
];

const scan: WasmFunction = {
  name: 'scan',
  params: 3,
  results: 1,
  locals: 9,
  vectorLocals: 13,
  body: [
    i32Const(0),
    i32Const(0),
    i32Store(SCANNER_FOLDABLE_OFFSET),
    // Fewer than three bytes hold no trigram.
    localGet(LENGTH),
    i32Const(3),
    i32LtU,
    wasm.if,
    localGet(OUT),
    wasm.return,
    wasm.end,
    // end = text + length; the first trigram ends at text + 2
    localGet(TEXT),
    localGet(LENGTH),
    i32Add,
    localSet(END),
    localGet(TEXT),
    i32Const(2),
    i32Add,
    localSet(POSITION),
    wasm.block,
    wasm.loop,
    ...trigramsOfSixteen,
    ...jointsOfSixteen,
    ...foldablePairsOfSixteen,
    // In the first round, no joint gram ends before text + 7.
    localGet(POSITION),
    localGet(TEXT),
    i32Const(2),
    i32Add,
    i32Ne,
    i32Eqz,
    wasm.if,
    i32Const(0),
    i32Const(0),
    i32Store(JOINTS_AT),
    i32Const(0),
    i32Const(0),
    i32Store8(JOINTS_AT + 4),
    wasm.end,
    // All 16 positions in the text, or the last round: stop = 4 * (end - position) positions
    // tested one at a time.
    localGet(END),
    localGet(POSITION),
    wasm.i32Sub,
    localTee(STOP),
    i32Const(16),
    i32GeU,
    wasm.if,
    ...fullRound,
    wasm.else,
    ...jointGramsOfSixteen,
    localGet(STOP),
    i32Const(2),
    i32Shl,
    localSet(STOP),
    i32Const(0),
    localSet(INDEX),
    wasm.loop,
    ...keyAt(TRIGRAMS_AT),
    ...appendIfNew,
    localGet(INDEX),
    i32Const(2),
    i32ShrU,
    i32Load8U(JOINTS_AT),
    wasm.if,
    ...keyAt(JOINT_GRAMS_AT),
    ...appendIfNew,
    wasm.end,
    localGet(INDEX),
    i32Const(4),
    i32Add,
    localTee(INDEX),
    localGet(STOP),
    i32Ne,
    wasm.brIf(0),
    wasm.end,
    wasm.end,
    // the next round, if any position is left
    localGet(POSITION),
    i32Const(16),
    i32Add,
    localTee(POSITION),
    localGet(END),
    i32LtU,
    wasm.brIf(0),
    wasm.end,
    wasm.end,
    ...storeFoldable,
    localGet(OUT),
  ],
};

// clear(from, to): forgets the keys listed as u32 in [from, to), so the bitmap is as it was
// before the file (cheaper than zeroing 2 MiB): each key's own bit is cleared, not its byte, so
// the bits of common keys (marked seen before the first file, never listed) stay set.
const FROM = 0;
const TO = 1;
const KEY_TO_CLEAR = 2;
const BYTE_TO_CLEAR = 3;
const clear: WasmFunction = {
  name: 'clear',
  params: 2,
  results: 0,
  locals: 2,
  body: [
    localGet(FROM),
    localGet(TO),
    i32GeU,
    wasm.if,
    wasm.return,
    wasm.end,
    wasm.loop,
    // seen[key >>> 3] &= ~(1 << (key & 7))
    localGet(FROM),
    i32Load(0),
    localTee(KEY_TO_CLEAR),
    i32Const(3),
    i32ShrU,
    localTee(BYTE_TO_CLEAR),
    localGet(BYTE_TO_CLEAR),
    i32Load8U(SCANNER_SEEN_OFFSET),
    i32Const(1),
    localGet(KEY_TO_CLEAR),
    i32Const(7),
    i32And,
    i32Shl,
    i32Const(-1),
    wasm.i32Xor,
    i32And,
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

let scannerBytes: Uint8Array | undefined;

/**
 * The scanner module's bytes (exports `scan` and `clear`; imports `env.memory`), assembled on first
 * use: a build's helper threads are given the compiled module instead (wasm-modules.ts).
 */
export function trigramScannerWasm(): Uint8Array {
  return (scannerBytes ??= assembleModule(Math.ceil(SCANNER_RESERVED_BYTES / 65536), [scan, clear]));
}

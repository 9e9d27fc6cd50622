/**
 * The join of chunks' posting lists in WebAssembly (see posting-merge.ts for the layout it is
 * given): a k-way merge by key whose chunk heads are read from one table, with no bounds check per
 * access, and each list's bytes after its first delta copied 16 at a time up to its 0 byte. All
 * addresses are byte addresses in the imported `env.memory`; posting-merge.test.ts holds the join
 * to each key's files.
 */
import { assembleModule, simd128, wasm, type WasmFunction } from './wasm-assembler.js';
import {
  add,
  and,
  atLeast,
  constant,
  equal,
  get,
  lessThan,
  load,
  load8,
  notEqual,
  or,
  set,
  shiftLeft,
  store,
  subtract,
  tee,
} from './wasm-short-names.js';
import { storeVarint } from './wasm-varint.js';

/** Bytes of one chunk's entry in the join's table: four `u32` (see {@link JOIN_ENTRY}). */
export const JOIN_ENTRY_BYTES = 16;

/**
 * Byte offsets in a chunk's entry of the join's table. The join moves the first three on as it
 * takes the chunk's lists.
 */
export const JOIN_ENTRY = {
  /** The address of the chunk's next key (`u32`); its keys end with {@link JOIN_NO_KEY}. */
  key: 0,
  /** The address of the last file (`u32`) of the chunk's next list. */
  last: 4,
  /** The address of the chunk's next list's bytes (delta varints, then a 0 byte). */
  bytes: 8,
  /** The files of the chunks before this one: what its file numbers move up by. */
  base: 12,
} as const;

/** The key after a chunk's last: above every key (keys have 24 bits), so never the smallest. */
export const JOIN_NO_KEY = 0xffffffff;

/**
 * Bytes the join may read and write past the end of a list's bytes (it copies 16 at a time): the
 * memory after the chunks' last bytes and after the joined bytes must hold as many.
 */
export const JOIN_OVERRUN_BYTES = 16;

/** Moves local `entry` to the table's next entry, and loops again unless it is `tableEnd`. */
const nextEntry = (entry: number, tableEnd: number) => [
  get(entry),
  constant(JOIN_ENTRY_BYTES),
  add,
  tee(entry),
  get(tableEnd),
  notEqual,
  wasm.brIf(0),
];

/** starts[distinct] = written - encoded: where the list of the key at `distinct` starts. */
const storeListStart = (starts: number, distinct: number, written: number, encoded: number) => [
  get(starts),
  get(distinct),
  constant(2),
  shiftLeft,
  add,
  get(written),
  get(encoded),
  subtract,
  store(0),
];

// join(table, tableEnd, encoded, lists, starts, distinct, until) -> distinct: joins the keys below
// `until` of the chunks of the entries in [table, tableEnd) (at least one), in order, key by key:
// each distinct key to the u32 array `lists` from index `distinct` on, where its list starts (from
// `encoded`) to `starts`, and its lists' bytes to `encoded` from `starts[distinct]` on, chunk after
// chunk, each first delta worked out again from the previous chunk's last file and the 0 bytes
// left out. Returns the count of distinct keys now; `starts` has one more start, the end, where
// the next call goes on. A build calls it once per high byte: a call that runs for tens of
// milliseconds would run all of them in the baseline compiler's code (V8 replaces a function's
// code between calls only), which took almost twice as long.
const join: WasmFunction = {
  name: 'join',
  params: 7,
  results: 1,
  locals: 12,
  vectorLocals: 1,
  body: ((
    TABLE,
    TABLE_END,
    ENCODED,
    LISTS,
    STARTS,
    DISTINCT,
    UNTIL,
    WRITTEN,
    SMALLEST,
    ENTRY,
    KEY,
    ADDRESS,
    AT,
    FIRST,
    SHIFT,
    BYTE,
    PREVIOUS,
    DELTA,
    ZEROS,
    VECTOR,
  ) => [
    get(STARTS),
    get(DISTINCT),
    constant(2),
    shiftLeft,
    add,
    load(0),
    get(ENCODED),
    add,
    set(WRITTEN),
    wasm.block,
    wasm.loop,
    // The smallest of the chunks' next keys.
    constant(JOIN_NO_KEY),
    set(SMALLEST),
    get(TABLE),
    set(ENTRY),
    wasm.loop,
    get(ENTRY),
    load(JOIN_ENTRY.key),
    load(0),
    tee(KEY),
    get(SMALLEST),
    lessThan,
    wasm.if,
    get(KEY),
    set(SMALLEST),
    wasm.end,
    ...nextEntry(ENTRY, TABLE_END),
    wasm.end,
    get(SMALLEST),
    get(UNTIL),
    atLeast,
    wasm.brIf(1),
    get(LISTS),
    get(DISTINCT),
    constant(2),
    shiftLeft,
    add,
    get(SMALLEST),
    store(0),
    ...storeListStart(STARTS, DISTINCT, WRITTEN, ENCODED),
    get(DISTINCT),
    constant(1),
    add,
    set(DISTINCT),
    // The first delta of a chunk's list counts from -1 within the chunk; the joined one from the
    // previous chunk's last file.
    constant(-1),
    set(PREVIOUS),
    get(TABLE),
    set(ENTRY),
    wasm.loop,
    get(ENTRY),
    load(JOIN_ENTRY.key),
    tee(ADDRESS),
    load(0),
    get(SMALLEST),
    equal,
    wasm.if,
    get(ENTRY),
    get(ADDRESS),
    constant(4),
    add,
    store(JOIN_ENTRY.key),
    get(ENTRY),
    load(JOIN_ENTRY.bytes),
    set(AT),
    constant(0),
    set(FIRST),
    constant(0),
    set(SHIFT),
    wasm.loop,
    get(AT),
    load8(0),
    set(BYTE),
    get(AT),
    constant(1),
    add,
    set(AT),
    get(FIRST),
    get(BYTE),
    constant(127),
    and,
    get(SHIFT),
    shiftLeft,
    or,
    set(FIRST),
    get(SHIFT),
    constant(7),
    add,
    set(SHIFT),
    get(BYTE),
    constant(128),
    and,
    wasm.brIf(0),
    wasm.end,
    get(ENTRY),
    load(JOIN_ENTRY.base),
    get(FIRST),
    add,
    constant(1),
    subtract,
    get(PREVIOUS),
    subtract,
    set(DELTA),
    ...storeVarint(DELTA, WRITTEN),
    // The rest up to the 0 byte, 16 bytes at a time (those after the 0 are overwritten later).
    wasm.loop,
    get(WRITTEN),
    get(AT),
    simd128.load(0),
    tee(VECTOR),
    simd128.store(0),
    get(VECTOR),
    simd128.splatByte(0),
    simd128.i8x16Eq,
    simd128.i8x16Bitmask,
    tee(ZEROS),
    wasm.i32Eqz,
    wasm.if,
    get(AT),
    constant(16),
    add,
    set(AT),
    get(WRITTEN),
    constant(16),
    add,
    set(WRITTEN),
    wasm.br(1),
    wasm.end,
    wasm.end,
    get(ZEROS),
    wasm.i32Ctz,
    set(ZEROS),
    get(WRITTEN),
    get(ZEROS),
    add,
    set(WRITTEN),
    get(ENTRY),
    get(AT),
    get(ZEROS),
    add,
    constant(1),
    add,
    store(JOIN_ENTRY.bytes),
    get(ENTRY),
    load(JOIN_ENTRY.last),
    tee(ADDRESS),
    load(0),
    get(ENTRY),
    load(JOIN_ENTRY.base),
    add,
    set(PREVIOUS),
    get(ENTRY),
    get(ADDRESS),
    constant(4),
    add,
    store(JOIN_ENTRY.last),
    wasm.end,
    ...nextEntry(ENTRY, TABLE_END),
    wasm.end,
    wasm.br(0),
    wasm.end,
    wasm.end,
    ...storeListStart(STARTS, DISTINCT, WRITTEN, ENCODED),
    get(DISTINCT),
  ])(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19),
};

/**
 * The module's bytes (imports `env.memory`; exports `join`), assembled when asked for: a build's
 * helper threads are given the compiled module instead (wasm-modules.ts).
 */
export function postingJoinWasm(): Uint8Array {
  return assembleModule(1, [join]);
}

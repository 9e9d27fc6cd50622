/**
 * A minimal WebAssembly assembler: enough of the binary format for modules of `i32` functions over
 * one imported shared memory (`env.memory`, of at most {@link MEMORY_MAXIMUM_PAGES}). The index thread's trigram scanner and posting sort are written with it
 * (see trigram-scanner-wasm.ts, posting-sort-wasm.ts), so the module is assembled from readable instructions at load time
 * instead of being committed as opaque bytes.
 */

/** Unsigned LEB128, as the binary format encodes counts, indices and memory offsets. */
function unsigned(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128, as `i32.const` encodes its operand. */
function signed(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function vector(items: number[][]): number[] {
  return [...unsigned(items.length), ...items.flat()];
}

function utf8Name(name: string): number[] {
  return vector([...Buffer.from(name, 'utf8')].map((byte) => [byte]));
}

function section(id: number, body: number[]): number[] {
  return [id, ...unsigned(body.length), ...body];
}

/** The instructions the scanner and the posting sort use; memory instructions take a constant address offset. */
export const wasm = {
  localGet: (index: number) => [0x20, ...unsigned(index)],
  localSet: (index: number) => [0x21, ...unsigned(index)],
  localTee: (index: number) => [0x22, ...unsigned(index)],
  i32Const: (value: number) => [0x41, ...signed(value)],
  i32Load: (offset: number) => [0x28, 2, ...unsigned(offset)],
  i32Load8U: (offset: number) => [0x2d, 0, ...unsigned(offset)],
  i32Load16U: (offset: number) => [0x2f, 1, ...unsigned(offset)],
  i32Store: (offset: number) => [0x36, 2, ...unsigned(offset)],
  i32Store8: (offset: number) => [0x3a, 0, ...unsigned(offset)],
  i32Store16: (offset: number) => [0x3b, 1, ...unsigned(offset)],
  i32Eqz: [0x45],
  i32Eq: [0x46],
  i32Ne: [0x47],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32And: [0x71],
  i32Or: [0x72],
  i32Xor: [0x73],
  i32Shl: [0x74],
  i32ShrU: [0x76],
  /** The count of trailing zero bits. */
  i32Ctz: [0x68],
  /** `block` / `loop` / `if` without a result; each is closed by `end`. */
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  else: [0x05],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...unsigned(depth)],
  brIf: (depth: number) => [0x0d, ...unsigned(depth)],
  return: [0x0f],
} as const;

// A SIMD instruction: the 0xfd prefix and its number (LEB128).
const simd = (operation: number, ...immediates: number[]) => [0xfd, ...unsigned(operation), ...immediates];

/**
 * The 128-bit SIMD instructions the scanner uses (16 bytes, or four `i32` lanes, at a time).
 * Lanes are little-endian: lane byte 0 is the lowest byte of lane 0.
 */
export const simd128 = {
  /** Loads 16 bytes from the address on the stack plus `offset` (any alignment). */
  load: (offset: number) => simd(0x00, 0, ...unsigned(offset)),
  store: (offset: number) => simd(0x0b, 0, ...unsigned(offset)),
  /** A constant of 16 bytes. */
  bytes: (bytes: readonly number[]) => simd(0x0c, ...bytes),
  /** A constant of 16 equal bytes. */
  splatByte: (byte: number) => simd(0x0c, ...Array.from({ length: 16 }, () => byte & 0xff)),
  /** A constant of four equal `i32` lanes. */
  splatI32: (value: number) =>
    simd(
      0x0c,
      ...Array.from({ length: 4 }, () => [
        value & 0xff,
        (value >>> 8) & 0xff,
        (value >>> 16) & 0xff,
        value >>> 24,
      ]).flat(),
    ),
  /** Byte `n` of the result is byte `lanes[n]` of the two operands laid end to end (0-31). */
  shuffle: (lanes: readonly number[]) => simd(0x0d, ...lanes),
  i8x16Eq: simd(0x23),
  i8x16LtS: simd(0x25),
  i8x16LtU: simd(0x26),
  and: simd(0x4e),
  or: simd(0x50),
  xor: simd(0x51),
  i8x16Add: simd(0x6e),
  i8x16Sub: simd(0x71),
  /** An `i32` whose bit n is the top bit of byte n of the vector. */
  i8x16Bitmask: simd(0x64),
  /** 1 if any bit of the vector is set, else 0. */
  anyTrue: simd(0x53),
  /** The `i32` in lane `lane` (0-3). */
  i32x4ExtractLane: (lane: number) => simd(0x1b, lane),
  /** Shifts each `i32` lane right (unsigned) by the `i32` on the stack. */
  i32x4ShrU: simd(0xad),
  i32x4Add: simd(0xae),
  i32x4Mul: simd(0xb5),
} as const;

/**
 * One exported function: `params` and `results` are `i32`, `locals` more `i32` locals after the
 * params, then `vectorLocals` `v128` locals.
 */
export interface WasmFunction {
  readonly name: string;
  readonly params: number;
  readonly results: 0 | 1;
  readonly locals: number;
  readonly vectorLocals?: number;
  readonly body: readonly (readonly number[])[];
}

const I32 = 0x7f;
const V128 = 0x7b;

/**
 * The most pages of 64 KiB a module's memory may grow to (4 GiB, all a 32-bit address reaches). A
 * shared memory must declare a maximum; it is address space reserved, not memory used.
 */
export const MEMORY_MAXIMUM_PAGES = 65536;
/** The memory limits' flags: a maximum follows, and the memory is shared (between threads). */
const SHARED_WITH_MAXIMUM = 0x03;

/**
 * Assembles a module that imports `env.memory` (shared, at least `minimumPages` of 64 KiB, at
 * most {@link MEMORY_MAXIMUM_PAGES}) and exports `functions`. The memory is shared so that every
 * build thread can read what another laid out in it, where it is.
 */
export function assembleModule(minimumPages: number, functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((fn) => [
    0x60,
    ...vector(Array.from({ length: fn.params }, () => [I32])),
    ...vector(Array.from({ length: fn.results }, () => [I32])),
  ]);
  const memoryImport = [
    ...utf8Name('env'),
    ...utf8Name('memory'),
    0x02,
    SHARED_WITH_MAXIMUM,
    ...unsigned(minimumPages),
    ...unsigned(MEMORY_MAXIMUM_PAGES),
  ];
  const exports = functions.map((fn, index) => [...utf8Name(fn.name), 0x00, ...unsigned(index)]);
  const bodies = functions.map((fn) => {
    const groups = [
      ...(fn.locals > 0 ? [[...unsigned(fn.locals), I32]] : []),
      ...((fn.vectorLocals ?? 0) > 0 ? [[...unsigned(fn.vectorLocals!), V128]] : []),
    ];
    const locals = vector(groups);
    const body = [...locals, ...fn.body.flat(), ...wasm.end];
    return [...unsigned(body.length), ...body];
  });
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(2, vector([memoryImport])),
    ...section(3, vector(functions.map((_, index) => unsigned(index)))),
    ...section(7, vector(exports)),
    ...section(10, vector(bodies)),
  ]);
}

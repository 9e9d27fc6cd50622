// Writing a delta as a LEB128 varint from WebAssembly: the posting sort encodes each list's files
// so, and the join writes each list's first delta again.
import { wasm } from './wasm-assembler.js';

const { localGet, localSet, i32Const, i32Add, i32And, i32Or, i32ShrU, i32LtU, i32Store8 } = wasm;

/**
 * Instructions that write the i32 in local `value` (which they consume) as a LEB128 varint at the
 * byte address local `written` holds, or `base` + `written` when `base` is given, and move
 * `written` on past it.
 */
export function storeVarint(value: number, written: number, base?: number): (readonly number[])[] {
  const address = base === undefined ? [localGet(written)] : [localGet(base), localGet(written), i32Add];
  const storeByte = (byte: (readonly number[])[]) => [
    ...address,
    ...byte,
    i32Store8(0),
    localGet(written),
    i32Const(1),
    i32Add,
    localSet(written),
  ];
  return [
    wasm.block,
    wasm.loop,
    localGet(value),
    i32Const(128),
    i32LtU,
    wasm.brIf(1),
    // seven bits and the high bit: more follow
    ...storeByte([localGet(value), i32Const(127), i32And, i32Const(128), i32Or]),
    localGet(value),
    i32Const(7),
    i32ShrU,
    localSet(value),
    wasm.br(0),
    wasm.end,
    wasm.end,
    ...storeByte([localGet(value)]),
  ];
}

// The instructions the posting sort and the join use most, under short names that read as what
// they do (`get`, `constant`, `atLeast`), so a function's body reads as its arithmetic.
import { wasm } from './wasm-assembler.js';

export const get = wasm.localGet;
export const set = wasm.localSet;
export const tee = wasm.localTee;
export const constant = wasm.i32Const;
export const load = wasm.i32Load;
export const load8 = wasm.i32Load8U;
export const load16 = wasm.i32Load16U;
export const store = wasm.i32Store;
export const store8 = wasm.i32Store8;
export const store16 = wasm.i32Store16;
export const equal = wasm.i32Eq;
export const notEqual = wasm.i32Ne;
export const lessThan = wasm.i32LtU;
export const atLeast = wasm.i32GeU;
export const add = wasm.i32Add;
export const subtract = wasm.i32Sub;
export const and = wasm.i32And;
export const or = wasm.i32Or;
export const shiftLeft = wasm.i32Shl;
export const shiftRight = wasm.i32ShrU;

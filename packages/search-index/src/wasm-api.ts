import { MEMORY_MAXIMUM_PAGES } from './wasm-assembler.js';

/**
 * The few WebAssembly globals the index thread uses. Node has them; this package's TypeScript
 * libraries (ES2023 and Node, no DOM) do not declare them.
 */
/**
 * A shared WebAssembly memory: `buffer` is a `SharedArrayBuffer` (views of it stay valid after it
 * grows, over the length it had; `buffer` is then a new, longer one), readable from other threads.
 */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
  /** Adds `pages` of 64 KiB; returns the old size in pages. */
  grow(pages: number): number;
}

/** A compiled module: instantiated any number of times, and posted to other threads as it is. */
export type WasmModule = object;

export interface WasmApi {
  readonly Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => WasmMemory;
  readonly Module: new (bytes: Uint8Array) => WasmModule;
  readonly Instance: new (module: WasmModule, imports: object) => { readonly exports: Record<string, unknown> };
}

/** Node's `WebAssembly` global, typed. */
export const webAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A memory for this package's modules (assembled by wasm-assembler.ts): shared, `pages` of 64 KiB to start. */
export function sharedMemory(pages: number): WasmMemory {
  return new webAssembly.Memory({ initial: pages, maximum: MEMORY_MAXIMUM_PAGES, shared: true });
}

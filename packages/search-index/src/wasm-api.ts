/**
 * The few WebAssembly globals the index thread uses. Node has them; this package's TypeScript
 * libraries (ES2023 and Node, no DOM) do not declare them.
 */
/** A WebAssembly memory: growing it detaches every view of the old `buffer`. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  /** Adds `pages` of 64 KiB; returns the old size in pages. */
  grow(pages: number): number;
}

export interface WasmApi {
  readonly Memory: new (descriptor: { initial: number }) => WasmMemory;
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** Node's `WebAssembly` global, typed. */
export const webAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

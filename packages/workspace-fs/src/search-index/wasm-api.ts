/**
 * The few WebAssembly globals the index thread uses. Node has them; this package's TypeScript
 * libraries (ES2023 and Node, no DOM) do not declare them.
 */
export interface WasmApi {
  readonly Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** Node's `WebAssembly` global, typed. */
export const webAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

// The package's compiled WebAssembly modules (the trigram scanner, the posting sort in its two
// widths, the join): assembled and compiled once, on first use, in the index thread, and handed to
// each build helper as it starts (a compiled module crosses threads as it is, with its code).
// Assembling them from their instructions took 12-18 ms of a helper's start, which the build waits
// for.
import { postingJoinWasm } from './posting-join-wasm.js';
import { postingSortWasm } from './posting-sort-wasm.js';
import { trigramScannerWasm } from './trigram-scanner-wasm.js';
import { webAssembly, type WasmModule } from './wasm-api.js';

/** The compiled modules a build thread instantiates over its own memory. */
export interface CompiledModules {
  readonly scanner: WasmModule;
  /** The posting sort with file numbers of 4 bytes. */
  readonly sortWide: WasmModule;
  /** The posting sort with file numbers of 2 bytes (parts of at most 65,536 files). */
  readonly sortNarrow: WasmModule;
  /** The join of chunks' posting lists. */
  readonly join: WasmModule;
}

let compiled: CompiledModules | undefined;

/** This thread's modules: compiled on first use unless another thread's were adopted. */
export function compiledModules(): CompiledModules {
  return (compiled ??= {
    scanner: new webAssembly.Module(trigramScannerWasm()),
    sortWide: new webAssembly.Module(postingSortWasm('wide')),
    sortNarrow: new webAssembly.Module(postingSortWasm('narrow')),
    join: new webAssembly.Module(postingJoinWasm()),
  });
}

/** Uses modules another thread of this process compiled (a helper, the index thread's). */
export function adoptCompiledModules(modules: CompiledModules): void {
  compiled = modules;
}

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCANNER_RESERVED_BYTES, SCANNER_SEEN_OFFSET, trigramScannerWasm } from './trigram-scanner-wasm.js';
import { isJoint, JOINT_GRAM_KEY_BASE, jointGramKeyOf, packTrigram, TrigramCollector } from './trigrams.js';
import { sharedMemory } from './wasm-api.js';

// The global exists in Node; this package's TypeScript libraries (no DOM) do not declare it.
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: (new (bytes: Uint8Array) => object) & {
    imports(module: object): { module: string; name: string; kind: string }[];
    exports(module: object): { name: string; kind: string }[];
  };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const { WebAssembly } = globalThis as unknown as { WebAssembly: WasmApi };

const FOUND = SCANNER_RESERVED_BYTES;
const word = (text: string) => Buffer.from(text, 'latin1').readInt32BE(0);
const TEXT = FOUND + 4 * (1 << 20);

/** The scanner as the index worker sets it up: its own memory. */
function scanner() {
  const memory = sharedMemory(Math.ceil((TEXT + (1 << 20)) / 65536));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(trigramScannerWasm()), { env: { memory } });
  const { scan, clear } = instance.exports as unknown as {
    scan(text: number, length: number, out: number): number;
    clear(from: number, to: number): void;
  };
  const bytes = new Uint8Array(memory.buffer);
  let out = FOUND;
  return {
    /** Scans `text`, after whatever was scanned since the last `take`. */
    add(text: Uint8Array) {
      bytes.set(text, TEXT);
      out = scan(TEXT, text.length, out);
    },
    /** The trigrams found since the last take, in the order found; the scanner forgets them. */
    take(): number[] {
      const found = [...new Uint32Array(memory.buffer, FOUND, (out - FOUND) / 4)];
      clear(FOUND, out);
      out = FOUND;
      return found;
    },
    seenBitmap: () => bytes.subarray(SCANNER_SEEN_OFFSET, SCANNER_SEEN_OFFSET + (1 << 21)),
  };
}

/**
 * Each distinct key of the texts in order of first occurrence (the definition, spelled out): at
 * each byte from the third on, the trigram ending there, then the joint gram ending there if its
 * fourth and fifth bytes are a joint.
 */
function reference(...texts: Uint8Array[]): number[] {
  const seen = new Set<number>();
  const word = (text: Uint8Array, at: number) =>
    (text[at]! << 24) | (text[at + 1]! << 16) | (text[at + 2]! << 8) | text[at + 3]!;
  for (const text of texts)
    for (let end = 2; end < text.length; end += 1) {
      seen.add(packTrigram(text[end - 2]!, text[end - 1]!, text[end]!));
      if (end >= 7 && isJoint(text[end - 4]!, text[end - 3]!))
        seen.add(jointGramKeyOf(word(text, end - 7), word(text, end - 3)));
    }
  return [...seen];
}

/**
 * Compares the keys found with the keys expected, each once, in any order (the posting sort orders
 * them), by the first difference (a full diff of 200,000 numbers takes minutes).
 */
function expectSameKeys(found: number[], expected: number[]): void {
  expect(new Set(found).size).toBe(found.length);
  const ascending = (keys: number[]) => [...keys].sort((left, right) => left - right);
  expectSameList(ascending(found), ascending(expected));
}

/** Compares long lists by their first difference. */
function expectSameList(actual: number[], expected: number[]): void {
  let first = 0;
  while (first < actual.length && first < expected.length && actual[first] === expected[first]) first += 1;
  expect({ length: actual.length, from: first, next: actual.slice(first, first + 5) }).toEqual({
    length: expected.length,
    from: first,
    next: expected.slice(first, first + 5),
  });
}

describe('trigramScannerWasm', () => {
  it('is a valid module that imports its memory and exports scan and clear', () => {
    expect(WebAssembly.validate(trigramScannerWasm())).toBe(true);
    const module = new WebAssembly.Module(trigramScannerWasm());
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    expect(WebAssembly.Module.exports(module).map((entry) => entry.name)).toEqual(['scan', 'clear']);
  });

  it('finds nothing in texts shorter than three bytes and one trigram in three', () => {
    const scan = scanner();
    for (const text of ['', 'a', 'ab']) {
      scan.add(Buffer.from(text));
      expect(scan.take(), JSON.stringify(text)).toEqual([]);
    }
    scan.add(Buffer.from('aBc'));
    expect(scan.take()).toEqual([0x616263]);
    scan.add(Buffer.from('aBcD'));
    expect(scan.take().sort()).toEqual([0x616263, 0x626364]);
  });

  it('keeps the eight bytes around a word joint, case and all, and no others', () => {
    const scan = scanner();
    const text = Buffer.from('certificateDetail');
    scan.add(text);
    const jointKeys = (keys: number[]) => keys.filter((key) => key >= JOINT_GRAM_KEY_BASE && key < 0x5a << 16);
    const joints = jointKeys(scan.take());
    // "ificateD" .. "ateDetai": only "cateDeta" has the joint ("e", "D") in its middle.
    expect(joints).toEqual([jointGramKeyOf(word('cate'), word('Deta'))]);
    // Joints at "e_", "_c", "e_", "_n"; at "_C" ("L_" has too few bytes before it); none.
    const counts = { CertificateDetail: 1, snake_case_name: 4, ALL_CAPS: 1, 'lower case words': 0 };
    for (const [other, count] of Object.entries(counts)) {
      scan.add(Buffer.from(other));
      expect(jointKeys(scan.take()), other).toHaveLength(count);
    }
  });

  it('lowers ASCII letters only, and lists each key once', () => {
    const scan = scanner();
    const text = Buffer.from('ABCabcAbC xyz \u00c4\u00e4\u00c4 [\\]^_`@{ ABC');
    scan.add(text);
    expectSameKeys(scan.take(), reference(text));
  });

  it('finds trigrams of every byte value before and after every other', () => {
    // Every byte before and after every other byte: 256 * 256 pairs, each followed by a third byte.
    const text = new Uint8Array(3 * 65536);
    for (let pair = 0; pair < 65536; pair += 1) text.set([pair >>> 8, pair & 0xff, (pair * 7) & 0xff], pair * 3);
    const scan = scanner();
    scan.add(text);
    expectSameKeys(scan.take(), reference(text));
  });

  it('matches TrigramCollector on random texts, and keeps deduplicating across texts until taken', () => {
    const scan = scanner();
    const collector = new TrigramCollector();
    // Without the bytes that end the three foldable sequences, the collector scans the text alone.
    const unfoldable = (text: Uint8Array) =>
      text.map((byte) => (byte === 0xaa || byte === 0xbf || byte === 0xb0 ? 0x20 : byte));
    for (let round = 0; round < 20; round += 1) {
      const raw = randomBytes(1 + Math.floor(Math.random() * 50_000));
      // A narrow alphabet in half of the rounds, so that repeats are frequent.
      const texts = [
        round % 2 === 0 ? raw.map((byte) => 0x41 + (byte % 6)) : unfoldable(raw),
        unfoldable(randomBytes(round)),
      ];
      for (const text of texts) {
        scan.add(text);
        collector.add(text);
      }
      const found = scan.take();
      expectSameKeys(found, reference(...texts));
      expectSameList(
        [...collector.take()],
        [...found].sort((left, right) => left - right),
      );
    }
  });

  it('finds every key of texts of every length up to 100, whatever bytes follow them', () => {
    // Word characters and spaces, so joints occur at every position; the longest text first, so
    // the bytes after each shorter one are the end of the text before (the scan reads past its
    // end 16 positions at a time and must append nothing of those bytes).
    const alphabet = Buffer.from('aZ_9 bY_');
    const scan = scanner();
    for (let length = 100; length >= 0; length -= 1) {
      const text = randomBytes(length).map((byte) => alphabet[byte % alphabet.length]!);
      scan.add(text);
      expectSameKeys(scan.take(), reference(text));
    }
  });

  it('writes nothing past the last key it appends', () => {
    const memory = sharedMemory(Math.ceil((TEXT + (1 << 20)) / 65536));
    const { scan } = new WebAssembly.Instance(new WebAssembly.Module(trigramScannerWasm()), { env: { memory } })
      .exports as unknown as { scan(text: number, length: number, out: number): number };
    const words = new Uint32Array(memory.buffer);
    // Rounds of new trigrams (random letters), then rounds repeating one trigram.
    const text = Buffer.concat([randomBytes(400).map((byte) => 0x61 + (byte % 26)), Buffer.alloc(400, 'abc')]);
    new Uint8Array(memory.buffer).set(text, TEXT);
    words.fill(0xdeadbeef, FOUND / 4, FOUND / 4 + 4096);
    const out = scan(TEXT, text.length, FOUND);
    expect(words.subarray(out / 4, FOUND / 4 + 4096).every((value) => value === 0xdeadbeef)).toBe(true);
    expectSameKeys([...words.subarray(FOUND / 4, out / 4)], reference(text));
  });

  it('clears the whole bitmap, so the next file starts from nothing', () => {
    const scan = scanner();
    const text = randomBytes(200_000);
    scan.add(text);
    const first = scan.take();
    expect(Buffer.from(scan.seenBitmap()).equals(Buffer.alloc(1 << 21))).toBe(true);
    scan.add(text);
    expectSameKeys(scan.take(), first);
  });
});

/**
 * Trigrams as the index keeps them: three bytes, ASCII letters lowered, packed as
 * `b0 << 16 | b1 << 8 | b2`. Lowering makes one index serve case-sensitive and case-insensitive
 * searches alike (the index narrows; the real matcher decides).
 *
 * Trigrams alone let through files that hold a compound identifier's words apart, or in another
 * case (367 candidates for `certificateDetail` on the benchmark corpus, many holding
 * `CertificateDetail`). So eight bytes whose middle is a word joint (a lower-case letter or digit
 * then an upper-case letter, or `_` on one side only) are kept too, case and all, as a hashed
 * joint-gram key (`JOINT_GRAM_KEY_BASE` plus a 19-bit hash; lowered trigrams never start with
 * the bytes 0x41-0x5a, "A"-"Z", so the key lives there, in the same posting lists). Whether
 * eight bytes are kept depends on those bytes alone, so every joint gram of a literal is in each
 * file that holds the literal; they are few (joints are rare among a text's positions). A hash
 * collision only adds candidates; it never drops one.
 *
 * Format 3 also kept every four bytes as a hashed exact-case quadgram: 60 % of a build's keys
 * (33 of 55.7 million on the benchmark corpus), and so of its sorting, joining and memory, for
 * no recall on the benchmark's rare identifiers (53 of 53 files either way; the searches read
 * about a quarter more candidate bytes without them). Format 4 keeps trigrams and joint grams.
 *
 * The index thread scans with the same definition in WebAssembly (trigram-scanner-wasm.ts, its
 * folding in part-scanner.ts); tests hold both to this collector's output.
 */

const LOWER = new Uint8Array(256);
for (let byte = 0; byte < 256; byte += 1) LOWER[byte] = byte >= 65 && byte <= 90 ? byte + 32 : byte;

/**
 * The lowest joint-gram key ("R" as the first byte, which no lowered trigram has; format 3 kept
 * its quadgram keys below it, from "A").
 */
export const JOINT_GRAM_KEY_BASE = 0x52 << 16;
/** The multiplier of the joint gram's last four bytes (Fibonacci hashing), shared with the WebAssembly scanner. */
export const JOINT_GRAM_LOW_MULTIPLIER = 0x9e3779b1;
/** The second multiplier of the joint-gram hash, shared with the WebAssembly scanner. */
export const JOINT_GRAM_HASH_MULTIPLIER = 0x85ebca6b;

/**
 * The word class of a byte for joints: 1 a lower-case ASCII letter or a digit, 2 an upper-case
 * ASCII letter, 4 `_`, 0 anything else.
 */
export const WORD_CLASS = new Uint8Array(256);
for (let byte = 0; byte < 256; byte += 1)
  WORD_CLASS[byte] =
    (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) ? 1 : byte >= 65 && byte <= 90 ? 2 : byte === 95 ? 4 : 0;

/** Whether `WORD_CLASS[left] << 3 | WORD_CLASS[right]` is a joint, by that index (64 entries). */
export const JOINTS = new Uint8Array(64);
for (let left = 0; left < 8; left += 1)
  for (let right = 0; right < 8; right += 1)
    JOINTS[(left << 3) | right] = (left === 1 && right === 2) || ((left ^ right) & 4) !== 0 ? 1 : 0;

/** Whether the bytes `left` then `right` are a word joint. */
export function isJoint(left: number, right: number): boolean {
  return JOINTS[(WORD_CLASS[left]! << 3) | WORD_CLASS[right]!] === 1;
}

/**
 * The key of eight bytes packed as two big-endian words, `high` (bytes 0-3) and `low` (bytes
 * 4-7), case kept. Only eight bytes whose fourth and fifth bytes are a joint get one.
 */
export function jointGramKeyOf(high: number, low: number): number {
  const product = Math.imul(high ^ Math.imul(low, JOINT_GRAM_LOW_MULTIPLIER), JOINT_GRAM_HASH_MULTIPLIER);
  return JOINT_GRAM_KEY_BASE + ((product ^ (product >>> 16)) >>> 13);
}

/** Whether an index key is a joint gram's (else a trigram's). */
export function isJointGramKey(key: number): boolean {
  return key >= JOINT_GRAM_KEY_BASE && key < 0x5a << 16;
}

/** Packs three bytes (already lowered) into a trigram. */
export function packTrigram(first: number, second: number, third: number): number {
  return (LOWER[first]! << 16) | (LOWER[second]! << 8) | LOWER[third]!;
}

// Three characters outside ASCII fold to ASCII letters under case-insensitive matching
// (U+212A KELVIN SIGN to "k" and U+017F LONG S to "s" in Unicode regular expressions, U+0130 to
// "i" + a combining dot in toLowerCase of names): a text holding them also gets the trigrams
// of a copy where they are replaced, so an ignore-case search for "key" still finds "\u212Aey".
/** The UTF-8 of U+212A, U+017F and U+0130, which fold to "k", "s" and "i". */
export const FOLDABLE = [Buffer.from([0xe2, 0x84, 0xaa]), Buffer.from([0xc5, 0xbf]), Buffer.from([0xc4, 0xb0])];

function foldedCopy(bytes: Uint8Array): Uint8Array | undefined {
  // Native searches first: almost every text holds none of the three.
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!FOLDABLE.some((sequence) => view.indexOf(sequence) >= 0)) return undefined;
  const out = new Uint8Array(bytes.length);
  let used = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (byte === 0xe2 && bytes[index + 1] === 0x84 && bytes[index + 2] === 0xaa) {
      out[used++] = 0x6b;
      index += 2;
    } else if (byte === 0xc5 && bytes[index + 1] === 0xbf) {
      out[used++] = 0x73;
      index += 1;
    } else if (byte === 0xc4 && bytes[index + 1] === 0xb0) {
      out[used++] = 0x69;
      index += 1;
    } else out[used++] = byte;
  }
  return out.subarray(0, used);
}

/** Collects distinct trigram and joint-gram keys with a bitmap of all 2^24 values, cleared after each use. */
export class TrigramCollector {
  private readonly seen = new Uint8Array(1 << 21);
  private found = new Uint32Array(1024);
  private count = 0;

  /** Adds the trigrams of `bytes` (and of its folded copy, if any). */
  add(bytes: Uint8Array): void {
    this.scan(bytes);
    const folded = foldedCopy(bytes);
    if (folded) this.scan(folded);
  }

  private scan(bytes: Uint8Array): void {
    if (bytes.length < 3) return;
    let trigram = (LOWER[bytes[0]!]! << 8) | LOWER[bytes[1]!]!;
    // The last four bytes as they are, and the four before them, once there are eight.
    let low = (bytes[0]! << 8) | bytes[1]!;
    let high = 0;
    for (let index = 2; index < bytes.length; index += 1) {
      trigram = ((trigram << 8) | LOWER[bytes[index]!]!) & 0xffffff;
      high = (high << 8) | (low >>> 24);
      low = (low << 8) | bytes[index]!;
      this.note(trigram);
      if (index >= 7 && isJoint(high & 0xff, low >>> 24)) this.note(jointGramKeyOf(high, low));
    }
  }

  private note(key: number): void {
    const slot = key >>> 3;
    const bit = 1 << (key & 7);
    if ((this.seen[slot]! & bit) !== 0) return;
    this.seen[slot] = this.seen[slot]! | bit;
    if (this.count === this.found.length) {
      const grown = new Uint32Array(this.found.length * 2);
      grown.set(this.found);
      this.found = grown;
    }
    this.found[this.count++] = key;
  }

  /** The distinct trigrams added since the last call, sorted; resets the collector. */
  take(): Uint32Array {
    const result = this.found.slice(0, this.count).sort();
    for (let index = 0; index < this.count; index += 1) this.seen[this.found[index]! >>> 3] = 0;
    this.count = 0;
    return result;
  }
}

/** Whether a sorted trigram list holds `trigram` (binary search). */
export function hasTrigram(sorted: Uint32Array, trigram: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = sorted[middle]!;
    if (value === trigram) return true;
    if (value < trigram) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

// The keys a build leaves out of the stored index: those held by so many of the workspace's files
// that they narrow no search. A search treats a common key as held by every file, so leaving one
// out never drops a candidate; it only lets through files the key alone would have kept out, and
// a key in an eighth of the files or more keeps out at most seven in eight. On the benchmark
// corpus the sample finds 910 of its 614,000 keys common, which held 27 % of its file-key pairs:
// pairs the scans no longer append and the threads no longer sort and join (4 % of a two-thread
// build's CPU), and long lists a search no longer decodes.
import type { WalkedFile } from './index-walk.js';
import { PartReader, type ReadSettings } from './index-part.js';
import { PartFilesWriter } from './part-files.js';
import type { PartScanner } from './part-scanner.js';

/** A key is common when at least this share of the sampled files holds it. */
export const COMMON_KEY_SHARE = 1 / 8;
/** Files sampled at most (spread evenly over the walk). */
export const COMMON_KEY_SAMPLE_FILES = 128;
/** Workspaces of fewer files keep every key (their builds are short, their samples small). */
export const COMMON_KEY_MIN_FILES = 2048;

/**
 * The common keys of `files` (sorted), from the keys of a sample of them read as a part reads
 * them: every key held by at least {@link COMMON_KEY_SHARE} of the sampled files that could be
 * read. None for fewer than {@link COMMON_KEY_MIN_FILES} files. `scanner` must hold no key
 * marked; it is left as it was.
 */
export function sampleCommonKeys(
  files: readonly WalkedFile[],
  settings: ReadSettings,
  scanner: PartScanner,
): Uint32Array {
  if (files.length < COMMON_KEY_MIN_FILES) return new Uint32Array(0);
  const stride = files.length / COMMON_KEY_SAMPLE_FILES;
  // The figures the reader records of each file go to a writer of their own: a sample keeps none.
  const reader = new PartReader(scanner, settings, new PartFilesWriter(COMMON_KEY_SAMPLE_FILES));
  const counts = new KeyCounts();
  let sampled = 0;
  for (let index = 0; index < COMMON_KEY_SAMPLE_FILES; index += 1) {
    const found = reader.read(files[Math.floor((index + 0.5) * stride)]!, 0);
    if (found <= 0) continue;
    counts.addAll(scanner.found(found));
    scanner.forget(0, found);
    sampled += 1;
  }
  return counts.atLeast(Math.max(1, Math.ceil(sampled * COMMON_KEY_SHARE)));
}

/** How many times each key was added (open addressing over typed arrays: a sample adds ~10^5 keys). */
class KeyCounts {
  // Room for a sample's distinct keys (~6 * 10^4 on the benchmark corpus) without growing.
  private bits = 18;
  // key + 1 in each used slot (keys are below 2^24, so 0 marks a free one), and its count.
  private keys = new Uint32Array(1 << this.bits);
  private counts = new Uint16Array(1 << this.bits);
  private used = 0;

  addAll(keys: Uint32Array): void {
    for (const key of keys) this.add(key, 1);
  }

  private add(key: number, count: number): void {
    if (2 * (this.used + 1) > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> (32 - this.bits);
    for (;;) {
      const held = this.keys[slot]!;
      if (held === key + 1) {
        this.counts[slot] = this.counts[slot]! + count;
        return;
      }
      if (held === 0) {
        this.keys[slot] = key + 1;
        this.counts[slot] = count;
        this.used += 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const { keys, counts } = this;
    this.bits += 1;
    this.keys = new Uint32Array(1 << this.bits);
    this.counts = new Uint16Array(1 << this.bits);
    this.used = 0;
    for (let slot = 0; slot < keys.length; slot += 1) if (keys[slot] !== 0) this.add(keys[slot]! - 1, counts[slot]!);
  }

  /** The keys added at least `count` times, sorted. */
  atLeast(count: number): Uint32Array {
    const out: number[] = [];
    for (let slot = 0; slot < this.keys.length; slot += 1)
      if (this.keys[slot] !== 0 && this.counts[slot]! >= count) out.push(this.keys[slot]! - 1);
    return Uint32Array.from(out).sort();
  }
}

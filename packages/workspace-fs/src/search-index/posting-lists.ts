// Turning one part's file-ordered trigram lists into posting lists. Radix sort by trigram in two
// passes, each with tables that fit in a cache (random access to a 2^24 table cost a third of a
// build): first by the high byte, then by the low 16 bits within each bucket. Both passes are
// stable, so each trigram's files stay in walk order. Each bucket's lists are encoded as soon as it
// is sorted, while they are in the cache.

/** One part's posting lists, the files numbered from 0 within the part, in walk order. */
export interface PartPostings {
  /** The distinct trigrams, ascending. */
  readonly trigramList: Uint32Array<ArrayBuffer>;
  /** Where each trigram's list starts in `encoded`, and one more entry for the end. */
  readonly postingStarts: Uint32Array<ArrayBuffer>;
  /** Each list's file numbers as deltas (the first from -1), varint-coded. */
  readonly encoded: Uint8Array<ArrayBuffer>;
  /** The first and last file of each list, so parts can be joined without decoding them. */
  readonly firstFiles: Uint32Array<ArrayBuffer>;
  readonly lastFiles: Uint32Array<ArrayBuffer>;
}

/** The trigrams of each file in turn (each distinct within its file), as the scan found them. */
export class FileTrigrams {
  /**
   * `trigrams` holds every file's list, one after another; file `n`'s starts at `fileStarts[n]`
   * and ends where the next one starts (the last at the end of `trigrams`).
   */
  constructor(
    private trigrams: Uint32Array,
    private readonly starts: readonly number[],
  ) {}

  /** File-trigram pairs. */
  get pairs(): number {
    return this.trigrams.length;
  }

  /**
   * Sorts the pairs by trigram and encodes them; `addedInReverse`: the files were added last
   * first (they are numbered in walk order all the same). The file-ordered list is dropped before the
   * encoding, so the two never take memory at once; nothing may be added afterwards.
   */
  toPostings(addedInReverse = false): PartPostings {
    const files = this.starts.length;
    const buckets = this.byHighByte(addedInReverse);
    this.trigrams = new Uint32Array(0);
    return encodeBuckets(buckets, files);
  }

  // The first pass: pairs bucketed by the trigram's high byte, keeping the low 16 bits and the
  // file. Files are visited in walk order, so each bucket holds its files ascending.
  private byHighByte(addedInReverse: boolean): HighBuckets {
    const { trigrams, starts } = this;
    const used = trigrams.length;
    const highStarts = new Uint32Array(257);
    for (let index = 0; index < used; index += 1) highStarts[(trigrams[index]! >>> 16) + 1]! += 1;
    let largestBucket = 0;
    for (let high = 0; high < 256; high += 1) {
      largestBucket = Math.max(largestBucket, highStarts[high + 1]!);
      highStarts[high + 1]! += highStarts[high]!;
    }
    const cursors = highStarts.slice(0, 256);
    const lows = new Uint16Array(used);
    const fileOf = new Uint32Array(used);
    const files = starts.length;
    for (let file = 0; file < files; file += 1) {
      const added = addedInReverse ? files - 1 - file : file;
      const end = added + 1 < files ? starts[added + 1]! : used;
      for (let index = starts[added]!; index < end; index += 1) {
        const trigram = trigrams[index]!;
        const position = cursors[trigram >>> 16]!++;
        lows[position] = trigram & 0xffff;
        fileOf[position] = file;
      }
    }
    return { highStarts, largestBucket, lows, fileOf };
  }
}

interface HighBuckets {
  /** Where each high byte's pairs start in `lows` and `fileOf` (257 entries). */
  readonly highStarts: Uint32Array;
  readonly largestBucket: number;
  readonly lows: Uint16Array;
  readonly fileOf: Uint32Array;
}

// The second pass and the encoding, bucket by bucket.
function encodeBuckets({ highStarts, largestBucket, lows, fileOf }: HighBuckets, files: number): PartPostings {
  const pairs = lows.length;
  // A delta is at most the number of files (the first counts from -1).
  const deltaBytes = files < 0x80 ? 1 : files < 0x4000 ? 2 : files < 0x200000 ? 3 : files < 0x10000000 ? 4 : 5;
  const bucket = new Uint32Array(largestBucket);
  const lowEnds = new Uint32Array(1 << 16);
  let trigramList = new Uint32Array(1 << 16);
  let postingStarts = new Uint32Array((1 << 16) + 1);
  let firstFiles = new Uint32Array(1 << 16);
  let lastFiles = new Uint32Array(1 << 16);
  let encoded = new Uint8Array(Math.max(1024, pairs + (pairs >>> 2)));
  let distinct = 0;
  let written = 0;
  for (let high = 0; high < 256; high += 1) {
    const from = highStarts[high]!;
    const to = highStarts[high + 1]!;
    if (from === to) continue;
    for (let index = from; index < to; index += 1) lowEnds[lows[index]!]! += 1;
    const firstSlot = distinct;
    let running = 0;
    for (let low = 0; low < 1 << 16; low += 1) {
      const count = lowEnds[low]!;
      if (count === 0) continue;
      if (distinct === trigramList.length) trigramList = grown(trigramList, distinct * 2);
      trigramList[distinct++] = (high << 16) | low;
      lowEnds[low] = running;
      running += count;
    }
    for (let index = from; index < to; index += 1) bucket[lowEnds[lows[index]!]!++] = fileOf[index]!;
    if (distinct + 1 > postingStarts.length) {
      postingStarts = grown(postingStarts, trigramList.length + 1);
      firstFiles = grown(firstFiles, trigramList.length);
      lastFiles = grown(lastFiles, trigramList.length);
    }
    if (written + (to - from) * deltaBytes > encoded.length) {
      const larger = new Uint8Array(Math.max(encoded.length * 2, written + (to - from) * deltaBytes));
      larger.set(encoded.subarray(0, written));
      encoded = larger;
    }
    let begin = 0;
    for (let slot = firstSlot; slot < distinct; slot += 1) {
      const low = trigramList[slot]! & 0xffff;
      const end = lowEnds[low]!;
      lowEnds[low] = 0;
      postingStarts[slot] = written;
      firstFiles[slot] = bucket[begin]!;
      lastFiles[slot] = bucket[end - 1]!;
      let previous = -1;
      for (let index = begin; index < end; index += 1) {
        const file = bucket[index]!;
        let delta = file - previous;
        previous = file;
        while (delta >= 128) {
          encoded[written++] = (delta & 127) | 128;
          delta >>>= 7;
        }
        encoded[written++] = delta;
      }
      begin = end;
    }
  }
  postingStarts[distinct] = written;
  return {
    trigramList: trigramList.slice(0, distinct),
    postingStarts: postingStarts.slice(0, distinct + 1),
    encoded: encoded.slice(0, written),
    firstFiles: firstFiles.slice(0, distinct),
    lastFiles: lastFiles.slice(0, distinct),
  };
}

function grown(array: Uint32Array, length: number): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(length);
  larger.set(array);
  return larger;
}

// Plain JavaScript for the index worker (see index-worker-source.ts): the trigram scan and the
// indexing of one contiguous part of the walk's files. The scan is trigram-scanner-wasm.ts and must
// stay identical to trigrams.ts; indexed-search.test.ts holds the stored postings to
// TrigramCollector's output, trigram-scanner-wasm.test.ts the scanner itself.
import { SCANNER_RESERVED_BYTES, TRIGRAM_SCANNER_WASM } from './trigram-scanner-wasm.js';

export const INDEX_PART_SOURCE =
  String.raw`
const SCANNER_MODULE = new WebAssembly.Module(new Uint8Array([` +
  TRIGRAM_SCANNER_WASM.join(',') +
  String.raw`]));
const SCANNER_RESERVED_BYTES = ` +
  SCANNER_RESERVED_BYTES +
  String.raw`;

// The scanner and its memory: the seen-bitmap, then the found list, then the text of one file,
// read straight into that memory. A file's trigrams (content, folded copy, name) are each new at
// most once, so the found list holds the text's length twice plus a name, and never more than 2^24.
function createScanner(fileLimit) {
  const textBytes = Math.max(fileLimit, 1 << 16);
  const foundStart = SCANNER_RESERVED_BYTES;
  const foundBytes = 4 * Math.min(2 * textBytes, 1 << 24);
  const textStart = foundStart + foundBytes;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((textStart + textBytes) / 65536) });
  const { scan, clear } = new WebAssembly.Instance(SCANNER_MODULE, { env: { memory } }).exports;
  const lower = new Uint8Array(memory.buffer, 0, 256);
  for (let byte = 0; byte < 256; byte += 1) lower[byte] = byte >= 65 && byte <= 90 ? byte + 32 : byte;
  return {
    text: Buffer.from(memory.buffer, textStart, textBytes),
    found: new Uint32Array(memory.buffer, foundStart, foundBytes / 4),
    // Scans text[0, length) after the trigrams found so far; returns how many there are now.
    scan(length, count) { return (scan(textStart, length, foundStart + 4 * count) - foundStart) / 4; },
    forget(count) { clear(foundStart, foundStart + 4 * count); },
  };
}

// The three sequences that fold to ASCII letters (see trigrams.ts), found by native search.
const FOLDABLE = [Buffer.from([0xe2, 0x84, 0xaa]), Buffer.from([0xc5, 0xbf]), Buffer.from([0xc4, 0xb0])];
// Replaces them in place (the copy is never longer); returns its length, or -1 if none occurs.
function foldInPlace(bytes, length) {
  const view = bytes.subarray(0, length);
  if (!FOLDABLE.some((sequence) => view.indexOf(sequence) >= 0)) return -1;
  let used = 0;
  for (let index = 0; index < length; index += 1) {
    const byte = bytes[index];
    if (byte === 0xe2 && index + 2 < length && bytes[index + 1] === 0x84 && bytes[index + 2] === 0xaa) { bytes[used++] = 0x6b; index += 2; }
    else if (byte === 0xc5 && index + 1 < length && bytes[index + 1] === 0xbf) { bytes[used++] = 0x73; index += 1; }
    else if (byte === 0xc4 && index + 1 < length && bytes[index + 1] === 0xb0) { bytes[used++] = 0x69; index += 1; }
    else bytes[used++] = byte;
  }
  return used;
}
// Adds the trigrams of text[0, length) and of its folded copy; returns the count found so far.
function scanText(scanner, length, count) {
  count = scanner.scan(length, count);
  const folded = foldInPlace(scanner.text, length);
  return folded < 0 ? count : scanner.scan(folded, count);
}

const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

// Reads what a search would read; returns the stats, with the count of the name's and content's
// trigrams left in scanner.found (the caller takes them and makes the scanner forget them).
function indexFile(file, scanner, fileLimit, now, settledMs) {
  const entry = { ino: 0, size: -1, mtimeMs: 0, ctimeMs: 0, flags: FLAG_UNREADABLE, trigrams: 0, bytes: 0 };
  let descriptor;
  try { descriptor = fs.openSync(file.absolute, OPEN_FLAGS); } catch { return entry; }
  let count = 0;
  try {
    const stats = fs.fstatSync(descriptor);
    if (!stats.isFile()) return undefined;
    // The name first: the content is then read over it.
    const text = scanner.text;
    if (Buffer.byteLength(file.name, 'utf8') > text.length) throw new Error('a file name longer than the scan buffer');
    count = scanText(scanner, text.write(file.name, 0, 'utf8'), count);
    const wanted = Math.min(stats.size, fileLimit);
    let filled = 0;
    while (filled < wanted) {
      const read = fs.readSync(descriptor, text, filled, wanted - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (!text.subarray(0, Math.min(filled, 8000)).includes(0)) count = scanText(scanner, filled, count);
    entry.ino = stats.ino;
    entry.size = stats.size;
    entry.mtimeMs = stats.mtimeMs;
    entry.ctimeMs = stats.ctimeMs;
    entry.flags = Math.max(stats.mtimeMs, stats.ctimeMs) < now - settledMs ? FLAG_SETTLED : 0;
    entry.trigrams = count;
    entry.bytes = filled;
    return entry;
  } catch {
    scanner.forget(count);
    return entry;
  } finally {
    fs.closeSync(descriptor);
  }
}

// Indexes a contiguous part of the walk's files: each kept file's stats, and for each trigram the
// part's files holding it (numbered from 0 within the part, in walk order), delta-encoded as
// varints. The first and last file of each list let parts be joined without decoding them.
function indexPart(files, fileLimit, now, settledMs) {
  const partStarted = Date.now();
  const scanner = createScanner(fileLimit);
  const entries = [];
  let forward = new Uint32Array(1 << 20);
  let forwardUsed = 0;
  const starts = [];
  let textBytes = 0;
  for (const file of files) {
    const entry = indexFile(file, scanner, fileLimit, now, settledMs);
    if (entry === undefined) continue;
    entry.relative = file.relative;
    starts.push(forwardUsed);
    const count = entry.trigrams;
    if (forwardUsed + count > forward.length) {
      const grown = new Uint32Array(Math.max(forward.length * 2, forwardUsed + count));
      grown.set(forward.subarray(0, forwardUsed));
      forward = grown;
    }
    forward.set(scanner.found.subarray(0, count), forwardUsed);
    scanner.forget(count);
    forwardUsed += count;
    textBytes += entry.bytes;
    entry.trigrams = undefined;
    entries.push(entry);
  }
  starts.push(forwardUsed);
  // Radix sort by trigram in two passes, each with tables that fit in a cache (random access to
  // a 2^24 table cost a third of a build): first by the high byte, then by the low 16 bits
  // within each bucket. Both passes are stable, so each trigram's files stay in walk order. Each
  // bucket's lists are encoded as soon as it is sorted, while they are in the cache.
  const highStarts = new Uint32Array(257);
  for (let index = 0; index < forwardUsed; index += 1) highStarts[(forward[index] >>> 16) + 1] += 1;
  let largestBucket = 0;
  for (let high = 0; high < 256; high += 1) {
    largestBucket = Math.max(largestBucket, highStarts[high + 1]);
    highStarts[high + 1] += highStarts[high];
  }
  const cursors = highStarts.slice(0, 256);
  const lows = new Uint16Array(forwardUsed);
  const fileOf = new Uint32Array(forwardUsed);
  for (let file = 0; file < entries.length; file += 1) {
    for (let index = starts[file]; index < starts[file + 1]; index += 1) {
      const trigram = forward[index];
      const position = cursors[trigram >>> 16]++;
      lows[position] = trigram & 0xffff;
      fileOf[position] = file;
    }
  }
  forward = undefined;
  // A delta is at most the number of files (the first counts from -1).
  const deltaBytes = entries.length < 0x80 ? 1 : entries.length < 0x4000 ? 2 : entries.length < 0x200000 ? 3 : entries.length < 0x10000000 ? 4 : 5;
  const bucket = new Uint32Array(largestBucket);
  const lowEnds = new Uint32Array(1 << 16);
  let trigramList = new Uint32Array(1 << 16);
  let postingStarts = new Uint32Array((1 << 16) + 1);
  let firstFiles = new Uint32Array(1 << 16);
  let lastFiles = new Uint32Array(1 << 16);
  let encoded = new Uint8Array(Math.max(1024, forwardUsed + (forwardUsed >>> 2)));
  let distinct = 0;
  let written = 0;
  for (let high = 0; high < 256; high += 1) {
    const from = highStarts[high];
    const to = highStarts[high + 1];
    if (from === to) continue;
    for (let index = from; index < to; index += 1) lowEnds[lows[index]] += 1;
    const firstSlot = distinct;
    let running = 0;
    for (let low = 0; low < 1 << 16; low += 1) {
      const count = lowEnds[low];
      if (count === 0) continue;
      if (distinct === trigramList.length) {
        const grownList = new Uint32Array(distinct * 2);
        grownList.set(trigramList);
        trigramList = grownList;
      }
      trigramList[distinct++] = (high << 16) | low;
      lowEnds[low] = running;
      running += count;
    }
    for (let index = from; index < to; index += 1) bucket[lowEnds[lows[index]]++] = fileOf[index];
    if (distinct + 1 > postingStarts.length) {
      const grownStarts = new Uint32Array(trigramList.length + 1);
      grownStarts.set(postingStarts);
      postingStarts = grownStarts;
      const grownFirst = new Uint32Array(trigramList.length);
      grownFirst.set(firstFiles);
      firstFiles = grownFirst;
      const grownLast = new Uint32Array(trigramList.length);
      grownLast.set(lastFiles);
      lastFiles = grownLast;
    }
    if (written + (to - from) * deltaBytes > encoded.length) {
      const grown = new Uint8Array(Math.max(encoded.length * 2, written + (to - from) * deltaBytes));
      grown.set(encoded.subarray(0, written));
      encoded = grown;
    }
    let begin = 0;
    for (let slot = firstSlot; slot < distinct; slot += 1) {
      const low = trigramList[slot] & 0xffff;
      const end = lowEnds[low];
      lowEnds[low] = 0;
      postingStarts[slot] = written;
      firstFiles[slot] = bucket[begin];
      lastFiles[slot] = bucket[end - 1];
      let previous = -1;
      for (let index = begin; index < end; index += 1) {
        const file = bucket[index];
        let delta = file - previous;
        previous = file;
        while (delta >= 128) { encoded[written++] = (delta & 127) | 128; delta >>>= 7; }
        encoded[written++] = delta;
      }
      begin = end;
    }
  }
  postingStarts[distinct] = written;
  return {
    entries,
    trigramList: trigramList.slice(0, distinct),
    postingStarts: postingStarts.slice(0, distinct + 1),
    encoded: encoded.slice(0, written),
    firstFiles: firstFiles.slice(0, distinct),
    lastFiles: lastFiles.slice(0, distinct),
    postings: forwardUsed,
    textBytes,
    ms: Date.now() - partStarted,
  };
}

`;

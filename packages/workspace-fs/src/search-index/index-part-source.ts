// Plain JavaScript for the index worker (see index-worker-source.ts): the trigram scan and the
// indexing of one contiguous part of the walk's files. The scan must stay identical to
// trigrams.ts; indexed-search.test.ts holds the stored postings to TrigramCollector's output.
export const INDEX_PART_SOURCE = String.raw`
const LOWER = new Uint8Array(256);
for (let byte = 0; byte < 256; byte += 1) LOWER[byte] = byte >= 65 && byte <= 90 ? byte + 32 : byte;

const seen = new Uint8Array(1 << 21);
let found = new Uint32Array(4096);
let foundCount = 0;

function scan(bytes) {
  if (bytes.length < 3) return;
  let trigram = (LOWER[bytes[0]] << 8) | LOWER[bytes[1]];
  for (let index = 2; index < bytes.length; index += 1) {
    trigram = ((trigram << 8) | LOWER[bytes[index]]) & 0xffffff;
    const slot = trigram >>> 3;
    const bit = 1 << (trigram & 7);
    if ((seen[slot] & bit) === 0) {
      seen[slot] |= bit;
      if (foundCount === found.length) {
        const grown = new Uint32Array(found.length * 2);
        grown.set(found);
        found = grown;
      }
      found[foundCount++] = trigram;
    }
  }
}
// The three sequences that fold to ASCII letters (see trigrams.ts), found by native search.
const FOLDABLE = [Buffer.from([0xe2, 0x84, 0xaa]), Buffer.from([0xc5, 0xbf]), Buffer.from([0xc4, 0xb0])];
function foldedCopy(bytes) {
  if (!FOLDABLE.some((sequence) => bytes.indexOf(sequence) >= 0)) return undefined;
  const out = new Uint8Array(bytes.length);
  let used = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (byte === 0xe2 && bytes[index + 1] === 0x84 && bytes[index + 2] === 0xaa) { out[used++] = 0x6b; index += 2; }
    else if (byte === 0xc5 && bytes[index + 1] === 0xbf) { out[used++] = 0x73; index += 1; }
    else if (byte === 0xc4 && bytes[index + 1] === 0xb0) { out[used++] = 0x69; index += 1; }
    else out[used++] = byte;
  }
  return out.subarray(0, used);
}
function addText(bytes) {
  scan(bytes);
  const folded = foldedCopy(bytes);
  if (folded) scan(folded);
}
// Unsorted: the build orders postings by a counting sort over all files, so sorting each
// file's trigrams would only cost time (a third of a build, measured).
function takeTrigrams() {
  const result = found.slice(0, foundCount);
  for (let index = 0; index < foundCount; index += 1) seen[found[index] >>> 3] = 0;
  foundCount = 0;
  return result;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

// Reads what a search would read; returns the stats and the trigrams of name and content.
function indexFile(file, buffer, fileLimit, now, settledMs) {
  const entry = { ino: 0, size: -1, mtimeMs: 0, ctimeMs: 0, flags: FLAG_UNREADABLE, trigrams: undefined, bytes: 0 };
  let descriptor;
  try { descriptor = fs.openSync(file.absolute, OPEN_FLAGS); } catch { return entry; }
  try {
    const stats = fs.fstatSync(descriptor);
    if (!stats.isFile()) return undefined;
    const wanted = Math.min(stats.size, fileLimit);
    let filled = 0;
    while (filled < wanted) {
      const count = fs.readSync(descriptor, buffer, filled, wanted - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    const content = buffer.subarray(0, filled);
    if (!content.subarray(0, 8000).includes(0)) addText(content);
    addText(Buffer.from(file.name, 'utf8'));
    entry.ino = stats.ino;
    entry.size = stats.size;
    entry.mtimeMs = stats.mtimeMs;
    entry.ctimeMs = stats.ctimeMs;
    entry.flags = Math.max(stats.mtimeMs, stats.ctimeMs) < now - settledMs ? FLAG_SETTLED : 0;
    entry.trigrams = takeTrigrams();
    entry.bytes = filled;
    return entry;
  } catch {
    takeTrigrams();
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
  const buffer = Buffer.allocUnsafe(fileLimit);
  const entries = [];
  let forward = new Uint32Array(1 << 20);
  let forwardUsed = 0;
  const starts = [];
  let textBytes = 0;
  for (const file of files) {
    const entry = indexFile(file, buffer, fileLimit, now, settledMs);
    if (entry === undefined) continue;
    entry.relative = file.relative;
    starts.push(forwardUsed);
    const trigrams = entry.trigrams ?? new Uint32Array(0);
    if (forwardUsed + trigrams.length > forward.length) {
      const grown = new Uint32Array(Math.max(forward.length * 2, forwardUsed + trigrams.length));
      grown.set(forward.subarray(0, forwardUsed));
      forward = grown;
    }
    forward.set(trigrams, forwardUsed);
    forwardUsed += trigrams.length;
    textBytes += entry.bytes;
    entry.trigrams = undefined;
    entries.push(entry);
  }
  starts.push(forwardUsed);
  // Radix sort by trigram in two passes, each with tables that fit in a cache (random access to
  // a 2^24 table cost a third of a build): first by the high byte, then by the low 16 bits
  // within each bucket. Both passes are stable, so each trigram's files stay in walk order.
  const highStarts = new Uint32Array(257);
  for (let index = 0; index < forwardUsed; index += 1) highStarts[(forward[index] >>> 16) + 1] += 1;
  for (let high = 0; high < 256; high += 1) highStarts[high + 1] += highStarts[high];
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
  // The files, in trigram order; written over the forward list, which is no longer needed.
  const postings = forward;
  forward = undefined;
  let trigramList = new Uint32Array(1 << 16);
  let ends = new Uint32Array(1 << 16);
  let distinct = 0;
  const lowCounts = new Uint32Array(1 << 16);
  for (let high = 0; high < 256; high += 1) {
    const from = highStarts[high];
    const to = highStarts[high + 1];
    if (from === to) continue;
    lowCounts.fill(0);
    for (let index = from; index < to; index += 1) lowCounts[lows[index]] += 1;
    let running = from;
    for (let low = 0; low < 1 << 16; low += 1) {
      const count = lowCounts[low];
      if (count === 0) continue;
      if (distinct === trigramList.length) {
        const grownList = new Uint32Array(distinct * 2);
        grownList.set(trigramList);
        trigramList = grownList;
        const grownEnds = new Uint32Array(distinct * 2);
        grownEnds.set(ends);
        ends = grownEnds;
      }
      trigramList[distinct] = (high << 16) | low;
      lowCounts[low] = running;
      running += count;
      ends[distinct] = running;
      distinct += 1;
    }
    for (let index = from; index < to; index += 1) postings[lowCounts[lows[index]]++] = fileOf[index];
  }
  trigramList = trigramList.slice(0, distinct);
  let encodedBytes = 0;
  for (let slot = 0, begin = 0; slot < distinct; begin = ends[slot], slot += 1) {
    let previous = -1;
    for (let index = begin; index < ends[slot]; index += 1) {
      const delta = postings[index] - previous;
      encodedBytes += delta < 0x80 ? 1 : delta < 0x4000 ? 2 : delta < 0x200000 ? 3 : delta < 0x10000000 ? 4 : 5;
      previous = postings[index];
    }
  }
  const encoded = new Uint8Array(encodedBytes);
  const postingStarts = new Uint32Array(distinct + 1);
  const firstFiles = new Uint32Array(distinct);
  const lastFiles = new Uint32Array(distinct);
  let written = 0;
  let begin = 0;
  for (let slot = 0; slot < distinct; slot += 1) {
    postingStarts[slot] = written;
    firstFiles[slot] = postings[begin];
    lastFiles[slot] = postings[ends[slot] - 1];
    let previous = -1;
    for (let index = begin; index < ends[slot]; index += 1) {
      let delta = postings[index] - previous;
      previous = postings[index];
      while (delta >= 128) { encoded[written++] = (delta & 127) | 128; delta >>>= 7; }
      encoded[written++] = delta;
    }
    begin = ends[slot];
  }
  postingStarts[distinct] = written;
  return { entries, trigramList, postingStarts, encoded, firstFiles, lastFiles, postings: forwardUsed, textBytes, ms: Date.now() - partStarted };
}

`;

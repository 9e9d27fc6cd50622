// Plain JavaScript, evaluated in the index worker thread: walking, reading and indexing a whole
// workspace takes seconds, and loading and checking a stored index reads tens of megabytes, so
// none of it may run on the thread that answers tool calls. The walk follows the same rules as
// `walkWorkspace` (names in code-unit order, skipped folder names never entered, symlinks and
// special files never followed) and reads what a search reads (the first `fileLimit` bytes,
// O_NOFOLLOW | O_NONBLOCK, a NUL in the first 8,000 bytes means binary: only the name counts).
// The trigram scan must stay identical to trigrams.ts; a test compares the two.
export const INDEX_WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash, randomBytes } = require('node:crypto');

const MAGIC = 'CLWSIDX1';
const VERSION = 1;
const HEADER_BYTES = 64;
const FLAG_SETTLED = 1;
const FLAG_UNREADABLE = 2;

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
function foldedCopy(bytes) {
  // Native scans for the lead bytes first: almost every text holds none of them.
  if (bytes.indexOf(0xe2) < 0 && bytes.indexOf(0xc5) < 0 && bytes.indexOf(0xc4) < 0) return undefined;
  let hit = false;
  for (let index = 0; index + 1 < bytes.length; index += 1) {
    const byte = bytes[index];
    if ((byte === 0xe2 && bytes[index + 1] === 0x84 && bytes[index + 2] === 0xaa) || (byte === 0xc5 && bytes[index + 1] === 0xbf) || (byte === 0xc4 && bytes[index + 1] === 0xb0)) { hit = true; break; }
  }
  if (!hit) return undefined;
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
function takeTrigrams() {
  const result = found.slice(0, foundCount).sort();
  for (let index = 0; index < foundCount; index += 1) seen[found[index] >>> 3] = 0;
  foundCount = 0;
  return result;
}

function byName(left, right) { return left.name < right.name ? -1 : left.name > right.name ? 1 : 0; }

// Depth-first walk in code-unit order of names, as walkWorkspace does.
function walk(root, skipped, files, folders) {
  const visit = (absolute, relative) => {
    let entries;
    try {
      const stats = fs.lstatSync(absolute);
      if (!stats.isDirectory()) return;
      folders.push({ relative, ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs });
      entries = fs.readdirSync(absolute, { withFileTypes: true }).sort(byName);
    } catch { return; }
    for (const entry of entries) {
      const name = entry.name;
      const childRelative = relative === '' ? name : relative + '/' + name;
      const childAbsolute = absolute + '/' + name;
      let isFile = entry.isFile();
      let isFolder = entry.isDirectory();
      if (!isFile && !isFolder && !entry.isSymbolicLink() && !entry.isFIFO() && !entry.isSocket() && !entry.isBlockDevice() && !entry.isCharacterDevice()) {
        try { const stats = fs.lstatSync(childAbsolute); isFile = stats.isFile(); isFolder = stats.isDirectory(); } catch { continue; }
      }
      if (isFile) files.push({ relative: childRelative, absolute: childAbsolute, name });
      else if (isFolder && !skipped.has(name)) visit(childAbsolute, childRelative);
    }
  };
  visit(root, '');
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

function varintLength(value) { let length = 1; while (value >= 128) { value = Math.floor(value / 128); length += 1; } return length; }

function encodeStrings(strings) { return Buffer.from(strings.join('\0'), 'utf8'); }

// Lays the sections out 8-byte aligned after a JSON description of where each one is.
function writeIndex(path, meta, sections) {
  const offsets = {};
  let position = 0;
  for (const [name, bytes] of sections) {
    offsets[name] = [position, bytes.byteLength];
    position += Math.ceil(bytes.byteLength / 8) * 8;
  }
  const description = Buffer.from(JSON.stringify({ ...meta, sections: offsets }), 'utf8');
  const descriptionBytes = Math.ceil((4 + description.length) / 8) * 8;
  const body = Buffer.alloc(descriptionBytes + position);
  body.writeUInt32LE(description.length, 0);
  description.copy(body, 4);
  for (const [name, bytes] of sections) {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    view.copy(body, descriptionBytes + offsets[name][0]);
  }
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(VERSION, 8);
  header.writeDoubleLE(body.length, 16);
  createHash('sha256').update(body).digest().copy(header, 24);
  const temporary = path + '.' + process.pid + '.' + randomBytes(6).toString('hex') + '.tmp';
  const descriptor = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeSync(descriptor, header);
    fs.writeSync(descriptor, body);
  } finally {
    fs.closeSync(descriptor);
  }
  fs.renameSync(temporary, path);
  return HEADER_BYTES + body.length;
}

function build({ root, skipped, fileLimit, path, key, settledMs }) {
  const started = Date.now();
  const files = [];
  const folders = [];
  walk(root, new Set(skipped), files, folders);
  const now = Date.now();
  const buffer = Buffer.allocUnsafe(fileLimit);
  const kept = [];
  let forward = new Uint32Array(1 << 20);
  let forwardUsed = 0;
  const starts = [];
  const counts = new Uint32Array(1 << 24);
  // Trigrams in order of first sight: sorted later, so small workspaces never scan all 2^24 counts.
  let distinctList = new Uint32Array(1 << 16);
  let distinct = 0;
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
    for (let index = 0; index < trigrams.length; index += 1) {
      const trigram = trigrams[index];
      if (counts[trigram]++ === 0) {
        if (distinct === distinctList.length) {
          const grown = new Uint32Array(distinctList.length * 2);
          grown.set(distinctList);
          distinctList = grown;
        }
        distinctList[distinct++] = trigram;
      }
    }
    textBytes += entry.bytes;
    entry.trigrams = undefined;
    kept.push(entry);
  }
  starts.push(forwardUsed);
  // Counting sort: each trigram's files end up in file order, which is walk order.
  const trigramList = distinctList.slice(0, distinct).sort();
  distinctList = undefined;
  const ends = new Uint32Array(distinct);
  let running = 0;
  for (let slot = 0; slot < distinct; slot += 1) {
    const trigram = trigramList[slot];
    const count = counts[trigram];
    counts[trigram] = running;
    running += count;
    ends[slot] = running;
  }
  const postings = new Uint32Array(forwardUsed);
  for (let file = 0; file < kept.length; file += 1) {
    for (let index = starts[file]; index < starts[file + 1]; index += 1) postings[counts[forward[index]]++] = file;
  }
  forward = undefined;
  let encodedBytes = 0;
  let begin = 0;
  for (let slot = 0; slot < distinct; slot += 1) {
    let previous = -1;
    for (let index = begin; index < ends[slot]; index += 1) { encodedBytes += varintLength(postings[index] - previous); previous = postings[index]; }
    begin = ends[slot];
  }
  const encoded = new Uint8Array(encodedBytes);
  const postingStarts = new Uint32Array(distinct + 1);
  let written = 0;
  begin = 0;
  for (let slot = 0; slot < distinct; slot += 1) {
    postingStarts[slot] = written;
    let previous = -1;
    for (let index = begin; index < ends[slot]; index += 1) {
      let delta = postings[index] - previous;
      previous = postings[index];
      while (delta >= 128) { encoded[written++] = (delta & 127) | 128; delta = Math.floor(delta / 128); }
      encoded[written++] = delta;
    }
    begin = ends[slot];
  }
  postingStarts[distinct] = written;
  const count = kept.length;
  const fileStats = new Float64Array(count * 4);
  const flags = new Uint8Array(count);
  kept.forEach((entry, index) => {
    fileStats[index * 4] = entry.ino;
    fileStats[index * 4 + 1] = entry.size;
    fileStats[index * 4 + 2] = entry.mtimeMs;
    fileStats[index * 4 + 3] = entry.ctimeMs;
    flags[index] = entry.flags;
  });
  const folderStats = new Float64Array(folders.length * 3);
  folders.forEach((folder, index) => {
    folderStats[index * 3] = folder.ino;
    folderStats[index * 3 + 1] = folder.mtimeMs;
    folderStats[index * 3 + 2] = folder.ctimeMs;
  });
  const meta = { key, builtAtMs: now, files: count, folders: folders.length, trigrams: distinct, postings: forwardUsed, textBytes };
  const bytesOnDisk = writeIndex(path, meta, [
    ['fileStats', fileStats],
    ['fileFlags', flags],
    ['filePaths', encodeStrings(kept.map((entry) => entry.relative))],
    ['folderStats', folderStats],
    ['folderPaths', encodeStrings(folders.map((folder) => folder.relative))],
    ['trigrams', trigramList],
    ['postingStarts', postingStarts],
    ['postings', encoded],
  ]);
  return { files: count, folders: folders.length, trigrams: distinct, postings: forwardUsed, textBytes, bytesOnDisk, buildMs: Date.now() - started };
}

// The stored index, checked whole: magic, version, length, SHA-256 of the body, and the key
// (workspace, skipped folders, per-file limit). Anything else is refused, never trusted.
function load({ path, key }) {
  let bytes;
  try { bytes = fs.readFileSync(path); } catch (error) { return { missing: true, reason: 'no stored index' }; }
  if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, 8) !== MAGIC) return { reason: 'not an index file' };
  if (bytes.readUInt32LE(8) !== VERSION) return { reason: 'index format version ' + bytes.readUInt32LE(8) };
  const bodyLength = bytes.readDoubleLE(16);
  if (bodyLength !== bytes.length - HEADER_BYTES) return { reason: 'truncated or extended index file' };
  const body = bytes.subarray(HEADER_BYTES);
  if (!createHash('sha256').update(body).digest().equals(bytes.subarray(24, 56))) return { reason: 'index checksum mismatch' };
  const descriptionLength = body.readUInt32LE(0);
  const description = JSON.parse(body.toString('utf8', 4, 4 + descriptionLength));
  if (JSON.stringify(description.key) !== JSON.stringify(key)) return { reason: 'index built for other settings' };
  const copy = new ArrayBuffer(body.length);
  new Uint8Array(copy).set(body);
  return { buffer: copy };
}

// Compares every stored file and folder with the disk (lstat, never following a link). A path
// whose inode, size or times differ, or whose times were too recent when it was indexed to tell
// two changes apart, is reported as changed.
function sweep({ root, files, fileStats, fileFlags, folders, folderStats }) {
  const changed = [];
  for (let index = 0; index < folders.length; index += 1) {
    const relative = folders[index];
    const stats = fs.lstatSync(relative === '' ? root : root + '/' + relative, { throwIfNoEntry: false });
    if (!stats || !stats.isDirectory() || stats.ino !== folderStats[index * 3] || stats.mtimeMs !== folderStats[index * 3 + 1] || stats.ctimeMs !== folderStats[index * 3 + 2]) changed.push(relative);
  }
  for (let index = 0; index < files.length; index += 1) {
    const relative = files[index];
    if ((fileFlags[index] & FLAG_SETTLED) === 0) { changed.push(relative); continue; }
    const stats = fs.lstatSync(root + '/' + relative, { throwIfNoEntry: false });
    if (!stats || !stats.isFile() || stats.ino !== fileStats[index * 4] || stats.size !== fileStats[index * 4 + 1] || stats.mtimeMs !== fileStats[index * 4 + 2] || stats.ctimeMs !== fileStats[index * 4 + 3]) changed.push(relative);
  }
  return { changed };
}

parentPort.on('message', (message) => {
  try {
    if (message.type === 'build') parentPort.postMessage({ id: message.id, ok: true, stats: build(message) });
    else if (message.type === 'load') {
      const loaded = load(message);
      parentPort.postMessage({ id: message.id, ok: true, ...loaded }, loaded.buffer ? [loaded.buffer] : []);
    } else if (message.type === 'sweep') parentPort.postMessage({ id: message.id, ok: true, ...sweep(message) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, reason: String(error && error.message ? error.message : error) });
  }
});
`;

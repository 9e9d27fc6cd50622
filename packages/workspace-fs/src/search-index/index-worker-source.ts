// Plain JavaScript, evaluated in the index worker thread: walking, reading and indexing a whole
// workspace takes seconds, and loading and checking a stored index reads tens of megabytes, so
// none of it may run on the thread that answers tool calls. The walk follows the same rules as
// `walkWorkspace` (names in code-unit order, skipped folder names never entered, symlinks and
// special files never followed) and reads what a search reads (the first `fileLimit` bytes,
// O_NOFOLLOW | O_NONBLOCK, a NUL in the first 8,000 bytes means binary: only the name counts).
// A build splits the files into contiguous parts indexed by helper threads running this same
// source (one part stays on this thread) and joins them; the scan and the part indexing live in
// index-part-source.ts, the join in posting-merge-source.ts.
import { INDEX_PART_SOURCE } from './index-part-source.js';
import { POSTING_MERGE_SOURCE } from './posting-merge-source.js';

const PREAMBLE = String.raw`
const { parentPort, workerData, Worker } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash, randomBytes } = require('node:crypto');

const MAGIC = 'CLWSIDX1';
const VERSION = 1;
const HEADER_BYTES = 64;
const FLAG_SETTLED = 1;
const FLAG_UNREADABLE = 2;
`;

const MAIN = String.raw`
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


// Indexes one part in a helper thread (a fresh one per build: builds are rare).
function indexInHelper(files, fileLimit, now, settledMs) {
  return new Promise((resolve, reject) => {
    const helper = new Worker(workerData.source, { eval: true, workerData: { role: 'part' } });
    helper.once('message', (reply) => {
      void helper.terminate();
      if (reply.ok) resolve(reply.part);
      else reject(new Error(reply.reason));
    });
    helper.once('error', reject);
    helper.once('exit', (code) => reject(new Error('an index helper thread stopped with code ' + code)));
    helper.postMessage({ files, fileLimit, now, settledMs });
  });
}

async function build({ root, skipped, fileLimit, path, key, settledMs, threads, minFilesPerPart }) {
  const started = Date.now();
  const files = [];
  const folders = [];
  walk(root, new Set(skipped), files, folders);
  const now = Date.now();
  const walkMs = now - started;
  const partCount = Math.max(1, Math.min(threads, Math.floor(files.length / minFilesPerPart)));
  const partSize = Math.ceil(files.length / partCount);
  const ranges = [];
  for (let number = 0; number < partCount; number += 1) ranges.push(files.slice(number * partSize, (number + 1) * partSize));
  // Started before this thread indexes its own part, and always awaited, so none is left running.
  const helpers = Promise.allSettled(ranges.slice(1).map((range) => indexInHelper(range, fileLimit, now, settledMs)));
  let first;
  try {
    first = indexPart(ranges[0], fileLimit, now, settledMs);
  } finally {
    await helpers;
  }
  const others = (await helpers).map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
  const indexedAt = Date.now();
  const merged = mergeParts([first, ...others]);
  const joinedAt = Date.now();
  const count = merged.entries.length;
  const fileStats = new Float64Array(count * 4);
  const flags = new Uint8Array(count);
  merged.entries.forEach((entry, index) => {
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
  const distinct = merged.trigramList.length;
  // The build's own time and parts are kept for whoever reads the file (the benchmark does).
  const meta = { key, builtAtMs: now, files: count, folders: folders.length, trigrams: distinct, postings: merged.postings, textBytes: merged.textBytes, buildMs: Date.now() - started, parts: partCount };
  const bytesOnDisk = writeIndex(path, meta, [
    ['fileStats', fileStats],
    ['fileFlags', flags],
    ['filePaths', encodeStrings(merged.entries.map((entry) => entry.relative))],
    ['folderStats', folderStats],
    ['folderPaths', encodeStrings(folders.map((folder) => folder.relative))],
    ['trigrams', merged.trigramList],
    ['postingStarts', merged.postingStarts],
    ['postings', merged.encoded],
  ]);
  return { files: count, folders: folders.length, trigrams: distinct, postings: merged.postings, textBytes: merged.textBytes, bytesOnDisk, parts: partCount, buildMs: Date.now() - started, phasesMs: { walk: walkMs, index: indexedAt - now, join: joinedAt - indexedAt, parts: [first, ...others].map((part) => part.ms), write: Date.now() - joinedAt } };
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

function reasonOf(error) { return String(error && error.message ? error.message : error); }

if (workerData && workerData.role === 'part') {
  parentPort.once('message', ({ files, fileLimit, now, settledMs }) => {
    try {
      const part = indexPart(files, fileLimit, now, settledMs);
      const transfer = [part.trigramList, part.postingStarts, part.encoded, part.firstFiles, part.lastFiles].map((array) => array.buffer);
      parentPort.postMessage({ ok: true, part }, transfer);
    } catch (error) {
      parentPort.postMessage({ ok: false, reason: reasonOf(error) });
    }
  });
} else {
  // One request at a time, in order, as when a build ran without awaiting anything.
  let queue = Promise.resolve();
  const answer = async (message) => {
    try {
      if (message.type === 'build') parentPort.postMessage({ id: message.id, ok: true, stats: await build(message) });
      else if (message.type === 'load') {
        const loaded = load(message);
        parentPort.postMessage({ id: message.id, ok: true, ...loaded }, loaded.buffer ? [loaded.buffer] : []);
      } else if (message.type === 'sweep') parentPort.postMessage({ id: message.id, ok: true, ...sweep(message) });
    } catch (error) {
      parentPort.postMessage({ id: message.id, ok: false, reason: reasonOf(error) });
    }
  };
  parentPort.on('message', (message) => {
    queue = queue.then(() => answer(message));
  });
}
`;

/** The index worker's whole program (also run by its helper threads, with `workerData.role`). */
export const INDEX_WORKER_SOURCE = PREAMBLE + INDEX_PART_SOURCE + POSTING_MERGE_SOURCE + MAIN;

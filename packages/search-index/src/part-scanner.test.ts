import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PartScanner, scanText } from './part-scanner.js';
import { TrigramCollector } from './trigrams.js';

describe('PartScanner', () => {
  it('keeps every file’s trigrams, one list after another, while its memory grows', () => {
    const scanner = new PartScanner(1 << 16);
    const collector = new TrigramCollector();
    const expected: Uint32Array[] = [];
    const starts: number[] = [];
    // The memory's sizes seen: the text view taken before it grew must still be where files are read.
    const memorySizes = new Set<number>();
    let found = 0;
    // Random 64 KiB texts hold about 65,000 distinct keys each (trigrams, and a few joint grams):
    // 16 of them outgrow the scanner's first found list of about a million.
    for (let file = 0; file < 16; file += 1) {
      const name = Buffer.from(`file-${file}.txt`);
      const content = randomBytes(1 << 16);
      scanner.makeRoom(found, content.length, name.length);
      memorySizes.add(scanner.foundList(0).memory.buffer.byteLength);
      const start = found;
      scanner.text.set(name);
      let count = scanText(scanner, name.length, found);
      scanner.text.set(content);
      count = scanText(scanner, content.length, count);
      scanner.forget(start, count);
      starts.push(start);
      found = count;
      collector.add(name);
      collector.add(content);
      expected.push(collector.take());
    }
    expect(memorySizes.size).toBeGreaterThan(1);
    const all = scanner.found(found);
    for (let file = 0; file < expected.length; file += 1) {
      const list = all.slice(starts[file], file + 1 < starts.length ? starts[file + 1] : found).sort();
      // Compared by the first difference: a full diff of 130,000 numbers takes minutes.
      let same = 0;
      while (same < list.length && list[same] === expected[file]![same]) same += 1;
      expect({ file, length: list.length, firstDifference: same }).toEqual({
        file,
        length: expected[file]!.length,
        firstDifference: expected[file]!.length,
      });
    }
  });
});

// The keys scanText finds for `text` after `stale` was read into the text area before it (the
// scanner's text area is reused, so bytes past a file's end are an earlier file's).
function scannedKeys(text: Buffer, stale: Buffer): number[] {
  const scanner = new PartScanner(1 << 16);
  scanner.text.set(stale);
  scanner.text.set(text);
  const count = scanText(scanner, text.length, 0);
  return [...scanner.found(count)].sort((left, right) => left - right);
}

function collectedKeys(text: Buffer): number[] {
  const collector = new TrigramCollector();
  collector.add(text);
  return [...collector.take()].sort((left, right) => left - right);
}

describe('scanText', () => {
  const kelvin = Buffer.from('\u212A');
  const longS = Buffer.from('\u017F');
  const dottedI = Buffer.from('\u0130');

  it('folds the three characters wherever they are, as TrigramCollector does', () => {
    const texts = [
      Buffer.concat([kelvin, Buffer.from('ey '), longS, longS, dottedI, Buffer.from('d '), kelvin, dottedI]),
      Buffer.concat([Buffer.from('abc'), dottedI, kelvin, longS, Buffer.from('xyz'), longS]),
      Buffer.concat([Buffer.from('plain words then '), longS, Buffer.from('ome more '), kelvin, Buffer.from('elvin')]),
      // Cut short by the text's end: the first bytes of a sequence alone fold to nothing.
      Buffer.concat([Buffer.from('ending in half a '), kelvin.subarray(0, 2)]),
      Buffer.concat([Buffer.from('hal'), dottedI.subarray(0, 1)]),
    ];
    for (const text of texts) {
      const keys = scannedKeys(text, Buffer.alloc(0));
      expect(keys).toEqual(collectedKeys(text));
      // Folded keys are there: more keys than the text alone has.
      if (text.includes(kelvin) || text.includes(longS) || text.includes(dottedI)) {
        const scanner = new PartScanner(1 << 16);
        scanner.text.set(text);
        expect(keys.length).toBeGreaterThan(scanner.scan(text.length, 0));
      }
    }
  });

  it('never folds what lies past the text, where an earlier file was read', () => {
    const text = Buffer.from('the text ends here\n');
    const stale = Buffer.concat([Buffer.alloc(text.length + 5, 0x61), kelvin, Buffer.from('ept'), longS, dottedI]);
    const halfway = Buffer.concat([Buffer.from('cut '), kelvin.subarray(0, 1)]);
    expect(scannedKeys(text, stale)).toEqual(collectedKeys(text));
    // The rest of the sequence is past the end: not a sequence of this text.
    expect(scannedKeys(halfway, Buffer.concat([Buffer.alloc(halfway.length), kelvin]))).toEqual(collectedKeys(halfway));
  });
});

describe('PartScanner.holdsNul', () => {
  it('finds a 0 byte anywhere in the text and never past it', () => {
    const scanner = new PartScanner(1 << 16);
    scanner.text.fill(0x61, 0, 100);
    expect(scanner.holdsNul(100)).toBe(false);
    expect(scanner.holdsNul(0)).toBe(false);
    scanner.text[100] = 0;
    expect(scanner.holdsNul(100)).toBe(false);
    expect(scanner.holdsNul(101)).toBe(true);
    scanner.text[0] = 0;
    expect(scanner.holdsNul(1)).toBe(true);
    expect(scanner.holdsNul(0)).toBe(false);
    scanner.text[0] = 0x61;
    scanner.text[57] = 0;
    expect(scanner.holdsNul(57)).toBe(false);
    expect(scanner.holdsNul(58)).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PartScanner, scanText } from './part-scanner.js';
import { packTrigram, TrigramCollector } from './trigrams.js';

describe('PartScanner', () => {
  it('finds every key of its first file, even one holding the sample a new scanner folds to warm up', () => {
    // The scanner's own warm-up text, and text around it: no key it saw may stay marked seen.
    const text = Buffer.from('xa\u0130b\u017Fc\u212Adx aIbsckd \u212Aelvin', 'utf8');
    const scanner = new PartScanner(1 << 16);
    scanner.text.set(text);
    const count = scanText(scanner, text.length, 0);
    const collector = new TrigramCollector();
    collector.add(text);
    expect([...scanner.found(count)].sort((left, right) => left - right)).toEqual([...collector.take()]);
  });

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

  it('folds a character at every place in texts of every length up to 40', () => {
    // The scan works 16 positions at a time and tells whether to fold: a character at a round's
    // edge, or in the text's first or last bytes, must be folded all the same.
    for (const character of [kelvin, longS, dottedI])
      for (let length = 3; length <= 40; length += 1)
        for (let at = 0; at + character.length <= length; at += 1) {
          const text = Buffer.alloc(length, 0x65);
          character.copy(text, at);
          expect(scannedKeys(text, Buffer.alloc(0)), `${length} bytes, ${character.toString()} at ${at}`).toEqual(
            collectedKeys(text),
          );
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

describe('PartScanner.mayHoldFoldable', () => {
  it('is false after a text without the three characters, ASCII or not, so it is not folded', () => {
    const scanner = new PartScanner(1 << 16);
    for (const text of [
      'plain ASCII text, long enough for a few rounds of the scan',
      'caf\u00e9 \u00c4\u00e4 \u65e5\u672c \u2014 \u0131',
    ]) {
      const bytes = Buffer.from(text);
      scanner.text.set(bytes);
      scanner.scan(bytes.length, 0);
      expect(scanner.mayHoldFoldable(), text).toBe(false);
    }
  });

  it('is true after a text holding one of them, wherever it is', () => {
    const scanner = new PartScanner(1 << 16);
    for (const character of ['\u212A', '\u017F', '\u0130'])
      for (let at = 0; at < 40; at += 1) {
        const text = Buffer.concat([Buffer.alloc(at, 0x61), Buffer.from(character), Buffer.alloc(40 - at, 0x62)]);
        scanner.text.set(text);
        scanner.scan(text.length, 0);
        expect(scanner.mayHoldFoldable(), `${character} at ${at}`).toBe(true);
        // False again after the next text, which holds none (too short to hold a trigram, or not).
        scanner.text.fill(0x63, 0, text.length);
        scanner.scan(at % 3, 0);
        expect(scanner.mayHoldFoldable(), `after ${character} at ${at}, ${at % 3} bytes`).toBe(false);
        scanner.text.set(text);
        scanner.scan(text.length, 0);
        scanner.text.fill(0x63, 0, text.length);
        scanner.scan(text.length, 0);
        expect(scanner.mayHoldFoldable(), `after ${character} at ${at}`).toBe(false);
      }
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
  it('never appends a common key, and forgetting a file leaves the common keys marked and no other', () => {
    const scanner = new PartScanner(1 << 16);
    // "abc" is common; "abd" (the next key, in the same byte of the seen-bitmap) and "bcx" are not.
    const common = packTrigram(0x61, 0x62, 0x63);
    scanner.markCommon(Uint32Array.of(common));
    const keysOf = (text: string) => {
      scanner.text.write(text, 0, 'latin1');
      const count = scanText(scanner, text.length, 0);
      const keys = [...scanner.found(count)].sort((left, right) => left - right);
      scanner.forget(0, count);
      return keys;
    };
    const expected = [packTrigram(0x61, 0x62, 0x64), packTrigram(0x62, 0x63, 0x78)].sort((left, right) => left - right);
    // Twice: after the first file is forgotten, "abd" is new again and "abc" still seen.
    expect(keysOf('abcxabd')).toEqual(
      [
        packTrigram(0x62, 0x63, 0x78),
        packTrigram(0x63, 0x78, 0x61),
        packTrigram(0x78, 0x61, 0x62),
        packTrigram(0x61, 0x62, 0x64),
      ].sort((left, right) => left - right),
    );
    expect(keysOf('abd bcx abc')).toEqual(
      [
        ...expected,
        packTrigram(0x62, 0x64, 0x20),
        packTrigram(0x64, 0x20, 0x62),
        packTrigram(0x20, 0x62, 0x63),
        packTrigram(0x63, 0x78, 0x20),
        packTrigram(0x78, 0x20, 0x61),
        packTrigram(0x20, 0x61, 0x62),
      ].sort((left, right) => left - right),
    );
  });
});

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

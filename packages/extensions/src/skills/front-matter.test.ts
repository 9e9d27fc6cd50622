import { testdir } from '@clawsmith/test-utils';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { frontMatterEnd, parsePlainFrontMatter, readFrontMatter } from './front-matter.js';

describe(parsePlainFrontMatter, () => {
  const samples = [
    'name: pdf-tools\ndescription: Fill in PDF forms and extract their text',
    'name: a\ndescription: Uses http://example.test/x?y=1 and commas, semicolons; fine',
    'name: a\n# a comment\n\ndescription: Émoji ✓ and ünïcode',
    'name: a\ndescription: Use when: a colon follows',
    'name: a\ndescription: value # with a comment',
    'name: a\ndescription: "quoted"',
    'name: a\ndescription: true',
    'name: a\ndescription: 1.5',
    'name: a\ndescription: [a, b]',
    'name: a\ndescription: - item',
    'name: a\ndescription: &anchor text',
    'name: a\ndescription: *alias',
    'name: a\n  indented: x',
    'name: a\nname: b',
    'name: a\ndescription: ends with colon:',
    'name: a\ndescription: null',
    'name: a\ndescription: ~',
  ];

  it('reads only lines the YAML parser reads the same way, and leaves the rest to it', () => {
    let accepted = 0;
    for (const sample of samples) {
      const plain = parsePlainFrontMatter(sample.split('\n'));
      if (plain === undefined) continue;
      accepted += 1;
      expect(plain, sample).toEqual(parse(sample));
    }
    expect(accepted).toBe(3);
  });
});

describe(readFrontMatter, () => {
  it('reads at most 64 KiB: a front matter that does not close in time is reported, not searched for', () => {
    const folder = testdir();
    const file = join(folder, 'SKILL.md');
    writeFileSync(file, `---\nname: long\ndescription: ${'x'.repeat(70 * 1024)}\n---\n`);
    expect(readFrontMatter(file)).toEqual({
      ok: false,
      line: 1,
      message: "the front matter is not closed by a '---' line within the first 64 KiB",
    });
  });

  it('reads front matter longer than the first read but within the limit', () => {
    const folder = testdir();
    const file = join(folder, 'SKILL.md');
    writeFileSync(file, `---\nname: long\ndescription: ${'y'.repeat(10_000)}\n---\nbody`);
    const front = readFrontMatter(file);
    expect(front.ok && (front.fields.description as string).length).toBe(10_000);
  });

  it('handles CRLF line ends and a byte order mark', () => {
    const folder = testdir();
    const file = join(folder, 'SKILL.md');
    writeFileSync(file, '\uFEFF---\r\nname: crlf\r\ndescription: Windows file\r\n---\r\nbody');
    const front = readFrontMatter(file);
    expect(front.ok && front.fields).toEqual({ name: 'crlf', description: 'Windows file' });
  });
});

describe(frontMatterEnd, () => {
  const end = (text: string, complete = true) => frontMatterEnd(Buffer.from(text), Buffer.byteLength(text), complete);

  it('finds the byte after the closing line, so the body is never decoded', () => {
    expect(end('---\nname: a\n---\n# body')).toBe(16);
    expect(end('---\r\nname: a\r\n--- \t\r\nbody')).toBe(21);
    expect(end('---\n---\n')).toBe(8);
    expect(end('---\nname: a\n---')).toBe(15);
  });

  it('skips lines that only start with dashes, and a closing line an incomplete read may have cut', () => {
    expect(end('---\nname: a\n----\nb: c\n---x\n---\n')).toBe(31);
    expect(end('---\nname: a\n---', false)).toBe(-1);
    expect(end('---\nname: a\n--- ', false)).toBe(-1);
    expect(end('---\nname: a\n')).toBe(-1);
  });
});

import { resolve } from 'node:path';
import { readmeExample, runExample } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';

const packageRoot = resolve(import.meta.dirname, '..');
const example = 'examples/store-large-output.ts';

describe('the README example', () => {
  it(`is ${example} verbatim`, () => {
    const { readme, file } = readmeExample(packageRoot, example);
    expect(readme).toBe(file);
  });

  // Twice: each run must create and remove its own temporary folder.
  it('runs as a program and prints what it did, twice in a row', { timeout: 300_000 }, () => {
    for (let run = 0; run < 2; run += 1) {
      const output = runExample(packageRoot, example);
      expect(output).toContain('success 9000: line 9000');
    }
  });
});

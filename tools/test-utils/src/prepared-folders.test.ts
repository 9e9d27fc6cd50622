import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preparedOncePerFile, snapshotTree } from './index.js';

let preparations = 0;
// Built by a real child process, as the packages' homes are.
const prepared = preparedOncePerFile(['home', 'workspace'], async ({ home, workspace }) => {
  preparations += 1;
  execFileSync(process.execPath, [
    '-e',
    `const fs = require('node:fs');
     fs.writeFileSync(${JSON.stringify(join(home, 'store.txt'))}, 'workspace=' + ${JSON.stringify(workspace)});
     fs.mkdirSync(${JSON.stringify(join(workspace, 'src'))});
     fs.writeFileSync(${JSON.stringify(join(workspace, 'src/a.txt'))}, 'built\\n');`,
  ]);
  return { built: 'by a child' };
});

const seen: Record<string, string>[] = [];
describe('preparedOncePerFile', () => {
  it('hands the first test what the preparation built, with its result', () => {
    const { home, workspace, built } = prepared();
    seen.push({ home, workspace });
    expect(built).toBe('by a child');
    expect(readFileSync(join(home, 'store.txt'), 'utf8')).toBe(`workspace=${workspace}`);
    expect(readFileSync(join(workspace, 'src/a.txt'), 'utf8')).toBe('built\n');
    // What this test changes, the next one does not see.
    writeFileSync(join(workspace, 'src/a.txt'), 'changed by a test\n');
    writeFileSync(join(workspace, 'stray.txt'), 'left behind\n');
    rmSync(join(home, 'store.txt'));
  });

  it('hands the next test the same paths, put back as built, without preparing again', () => {
    const { home, workspace } = prepared();
    expect({ home, workspace }).toEqual(seen[0]);
    expect(snapshotTree(workspace)).toEqual({
      src: expect.stringMatching(/^dir:/),
      'src/a.txt': expect.stringMatching(/^file:/),
    });
    expect(readFileSync(join(workspace, 'src/a.txt'), 'utf8')).toBe('built\n');
    expect(readFileSync(join(home, 'store.txt'), 'utf8')).toBe(`workspace=${workspace}`);
    expect(preparations).toBe(1);
  });
});

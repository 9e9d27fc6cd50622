// write_file only creates: a FIFO (or any other non-regular entry) already at the path is left
// alone and answered with file_exists, whatever the file wall is.
import { execFileSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';

const writeFile = toolNamed('write_file');

describe('write_file over a special file', () => {
  it('refuses an existing FIFO with file_exists and leaves it a FIFO', async () => {
    const root = testdir({ src: {} });
    execFileSync('mkfifo', [join(root, 'src/pipe')]);
    const context = testContext(root);
    const result = await runTool(writeFile, { path: 'src/pipe', content: 'replaced?\n' }, context);
    expect(result).toMatchObject({ status: 'error', code: 'file_exists' });
    expect(lstatSync(join(root, 'src/pipe')).isFIFO()).toBe(true);
    expect(context.changes).toEqual([]);
  });
});

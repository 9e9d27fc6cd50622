import { describe, expect, it } from 'vitest';
import { BoundedOutput } from './bounded-output.js';

describe('BoundedOutput', () => {
  it('keeps everything while under the cap', () => {
    const output = new BoundedOutput(10, 10);
    output.push(Buffer.from('hello '));
    output.push(Buffer.from('world'));
    expect(output.text()).toBe('hello world');
    expect(output.truncated).toBe(false);
  });

  it('keeps head and tail and counts what it left out, in bounded memory', () => {
    const output = new BoundedOutput(4, 4, 8);
    for (let index = 0; index < 1000; index += 1) output.push(Buffer.from(`${index % 10}`));
    expect(output.totalBytes).toBe(1000);
    expect(output.truncated).toBe(true);
    expect(output.text()).toBe('0123\n… [992 bytes of output left out; 1000 bytes in all] …\n6789');
    expect(output.completeLog().toString()).toBe('01234567');
    expect(output.logTruncated).toBe(true);
  });
});

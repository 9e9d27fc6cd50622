import { describe, expect, it } from 'vitest';
import { CommandLog } from './command-log.js';

describe('CommandLog', () => {
  it('serves reads from the head and the retained tail, and says how much was dropped between', () => {
    const log = new CommandLog(10, undefined, 4);
    for (let index = 0; index < 10; index += 1) log.append(Buffer.from(`${index}${index}${index}`));
    expect(log.totalBytes).toBe(30);
    expect(log.read(0, 100).bytes.toString()).toBe('0001');
    const skipped = log.read(4, 5);
    expect(skipped.droppedBytes).toBeGreaterThan(0);
    expect(skipped.offset).toBe(4 + skipped.droppedBytes);
    expect(log.read(27, 100)).toMatchObject({ offset: 27, nextOffset: 30 });
    expect(log.read(27, 100).bytes.toString()).toBe('999');
    expect(log.read(30, 100).bytes.length).toBe(0);
  });
});

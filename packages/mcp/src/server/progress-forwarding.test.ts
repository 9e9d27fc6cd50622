import { describe, expect, it } from 'vitest';
import { progressForwarder, progressTokenOf } from './progress-forwarding.js';

describe(progressTokenOf, () => {
  it('reads a string or number token from _meta, and nothing else', () => {
    expect(progressTokenOf({ _meta: { progressToken: 'p1' } })).toBe('p1');
    expect(progressTokenOf({ _meta: { progressToken: 0 } })).toBe(0);
    expect(progressTokenOf({ _meta: { progressToken: { nested: true } } })).toBeUndefined();
    expect(progressTokenOf({ _meta: null })).toBeUndefined();
    expect(progressTokenOf({})).toBeUndefined();
  });
});

describe(progressForwarder, () => {
  it('sends growing progress with the token, and drops what does not grow or cannot be sent', async () => {
    const sent: unknown[] = [];
    let failNext = false;
    const forward = progressForwarder(7, async (notification) => {
      if (failNext) {
        failNext = false;
        throw new Error('Not connected');
      }
      sent.push(notification);
    });
    forward({ progress: 1, total: 3, message: 'reading' });
    forward({ progress: 1, total: 3, message: 'same value' });
    failNext = true;
    forward({ progress: 2, total: 3 });
    forward({ progress: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 7, progress: 1, total: 3, message: 'reading' } },
      { method: 'notifications/progress', params: { progressToken: 7, progress: 3 } },
    ]);
  });
});

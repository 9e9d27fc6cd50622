import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { describe, expect, it } from 'vitest';
import { StdioReadBuffer, useStdioReadBuffer } from './stdio-read-buffer.js';

type Buffered = Pick<ReadBuffer, 'append' | 'readMessage'>;

/** Feeds `chunks` to `buffer`, reading every message after each chunk; the messages, or the error of each bad line. */
function readAll(buffer: Buffered, chunks: readonly Buffer[]): unknown[] {
  const out: unknown[] = [];
  for (const chunk of chunks) {
    buffer.append(chunk);
    for (;;) {
      try {
        const message = buffer.readMessage();
        if (message === null) break;
        out.push(message);
      } catch (error) {
        out.push(`error: ${(error as Error).name}`);
      }
    }
  }
  return out;
}

/** `bytes` cut at pseudo-random places (a fixed seed), into chunks of 1 to `largest` bytes (of `largest / 2` or more when it is over 1000). */
function cut(bytes: Buffer, largest: number, seed: number): Buffer[] {
  const chunks: Buffer[] = [];
  let state = seed;
  for (let at = 0; at < bytes.length;) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const size = largest > 1000 ? Math.ceil(largest / 2) + (state % Math.ceil(largest / 2)) : 1 + (state % largest);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

const messages = [
  { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'plain' }] } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1, total: 6 } },
  { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ünïcödé ✓ 𝄞 split across chunks' }] } },
  { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'x'.repeat(200_000) }] } },
];

describe('StdioReadBuffer', () => {
  it('reads the messages the SDK’s ReadBuffer reads, however the stream is cut', () => {
    const lines = messages.map((message, index) => `${JSON.stringify(message)}${index === 1 ? '\r\n' : '\n'}`);
    const small = Buffer.from([lines[0], lines[1], lines[2], 'not json\n', lines[0]].join(''));
    const large = Buffer.from([lines[1], lines[3], lines[2], lines[3]].join(''));
    // The SDK's buffer is quadratic: the large stream is cut into chunks no smaller than a pipe's.
    for (const [stream, largest, seed] of [
      [small, 1, 1],
      [small, 7, 2],
      [small, small.length, 3],
      [large, 4096, 4],
      [large, 65_536, 5],
      [large, large.length, 6],
    ] as const) {
      const chunks = cut(stream, largest, seed);
      const expected = readAll(new ReadBuffer(), chunks);
      expect(expected).toHaveLength(stream === small ? 5 : 4);
      expect(readAll(new StdioReadBuffer(1024 * 1024), chunks)).toEqual(expected);
    }
  });

  it('holds a message larger than one chunk until its newline, and keeps what follows it', () => {
    const buffer = new StdioReadBuffer(1024 * 1024);
    const big = Buffer.from(`${JSON.stringify(messages[3])}\n${JSON.stringify(messages[0])}`);
    buffer.append(big.subarray(0, 100_000));
    expect(buffer.readMessage()).toBeNull();
    buffer.append(big.subarray(100_000));
    expect(buffer.readMessage()).toEqual(messages[3]);
    expect(buffer.readMessage()).toBeNull();
    buffer.append(Buffer.from('\n'));
    expect(buffer.readMessage()).toEqual(messages[0]);
  });

  it('refuses to hold more than its limit as the SDK does, and reads on afresh', () => {
    const buffer = new StdioReadBuffer(1000);
    buffer.append(Buffer.alloc(600, 'x'));
    expect(() => buffer.append(Buffer.alloc(600, 'x'))).toThrow('ReadBuffer exceeded maximum size of 1000 bytes');
    buffer.append(Buffer.from(`${JSON.stringify(messages[0])}\n`));
    expect(buffer.readMessage()).toEqual(messages[0]);
  });
});

describe('useStdioReadBuffer', () => {
  it('replaces the read buffer of the SDK’s stdio client transport', () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    useStdioReadBuffer(transport, 4096);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(StdioReadBuffer);
  });
});

import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const NEWLINE = 0x0a;

/**
 * The SDK's stdio `ReadBuffer` (newline-delimited JSON-RPC messages from a server's stdout), with
 * each byte copied and searched once. The SDK's joins every chunk onto everything it holds and
 * looks for the newline from the start again, so a message of n bytes costs O(n²): one 10 MB
 * result (a large file read through a server) spent 4 s copying buffers and 0.4 s searching them.
 * Same messages, same errors: a line is parsed by the SDK's own `deserializeMessage`, and holding
 * more than `maxBufferSize` bytes clears the buffer and throws as the SDK's does.
 */
export class StdioReadBuffer {
  readonly #maxBufferSize: number;
  #chunks: Buffer[] = [];
  #size = 0;
  /** How many of the chunks, from the first, are known to hold no newline. */
  #searched = 0;

  constructor(maxBufferSize: number) {
    this.#maxBufferSize = maxBufferSize;
  }

  append(chunk: Buffer): void {
    if (this.#size + chunk.length > this.#maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.#maxBufferSize} bytes`);
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    for (; this.#searched < this.#chunks.length; this.#searched += 1) {
      const newline = this.#chunks[this.#searched]!.indexOf(NEWLINE);
      if (newline !== -1) return deserializeMessage(this.#takeLine(this.#searched, newline));
    }
    return null;
  }

  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#searched = 0;
  }

  /** Removes the bytes up to the newline at `newline` of chunk `index` and returns them as text. */
  #takeLine(index: number, newline: number): string {
    const last = this.#chunks[index]!;
    const line = Buffer.concat([...this.#chunks.slice(0, index), last.subarray(0, newline)]);
    const rest = last.subarray(newline + 1);
    this.#chunks = rest.length > 0 ? [rest, ...this.#chunks.slice(index + 1)] : this.#chunks.slice(index + 1);
    this.#size -= line.length + 1;
    this.#searched = 0;
    return line.toString('utf8').replace(/\r$/, '');
  }
}

/**
 * Gives an SDK stdio transport a {@link StdioReadBuffer} in place of its own (the `_readBuffer`
 * field of `StdioClientTransport` in SDK 1.32.2). A transport without such a field is left as it
 * is: it still works, with the SDK's buffer.
 */
export function useStdioReadBuffer(transport: object, maxBufferSize: number): void {
  const held = transport as { _readBuffer?: unknown };
  const current = held._readBuffer as Partial<Record<'append' | 'readMessage' | 'clear', unknown>> | undefined;
  if (typeof current?.append === 'function' && typeof current.readMessage === 'function')
    held._readBuffer = new StdioReadBuffer(maxBufferSize);
}

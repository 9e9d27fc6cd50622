// Test helper: reads a Server-Sent Events response incrementally, the way EventSource parses it.

export interface SseMessage {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';
  readonly #queue: SseMessage[] = [];

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
  }

  /** The next message (comments skipped), or undefined when the stream ended. */
  async next(timeoutMs = 10_000): Promise<SseMessage | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.#queue.length === 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('No SSE message arrived in time.');
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        this.#reader.read(),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), remaining))),
      ]);
      clearTimeout(timer);
      if (result === 'timeout') throw new Error('No SSE message arrived in time.');
      if (result.done) return undefined;
      this.#buffer += this.#decoder.decode(result.value, { stream: true });
      this.#parse();
    }
    return this.#queue.shift();
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  #parse(): void {
    let boundary: number;
    while ((boundary = this.#buffer.indexOf('\n\n')) !== -1) {
      const block = this.#buffer.slice(0, boundary);
      this.#buffer = this.#buffer.slice(boundary + 2);
      let id: string | undefined;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'id') id = value;
        else if (name === 'event') event = value;
        else if (name === 'data') data.push(value);
      }
      if (data.length > 0) this.#queue.push({ ...(id !== undefined ? { id } : {}), event, data: data.join('\n') });
    }
  }
}

import type * as NodeFs from 'node:fs';
import { WORKSPACE_MUTATION_SOURCE, type WorkspaceMutationOutcome } from '@clawsmith/tool-protocol';

/**
 * The file wall's helper loop, run inside the sandbox. It reads one JSON batch per line and
 * answers one JSON outcome per line, in order. It blocks in read(2) and write(2) on its inherited
 * pipe ends, descriptors 0 and 1 (it never touches process.stdin or stdout, which would make them
 * non-blocking): no event loop turn, no stream or string-decoder machinery between a batch's
 * arrival and its answer. A read or write that fails ends the helper, and the host refuses with
 * `sandbox_unavailable`.
 *
 * It is shipped as text (see {@link WALL_HELPER_PROGRAM}), so it refers to nothing outside itself
 * but its parameters and the runtime's globals.
 */
export function wallHelperLoop(fs: typeof NodeFs, apply: (batch: unknown) => WorkspaceMutationOutcome): never {
  const send = (text: string) => {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length;) at += fs.writeSync(1, bytes, at);
  };
  const input = Buffer.allocUnsafe(65536);
  let held: Buffer[] = [];
  send('{"ready":true}\n');
  for (;;) {
    let count: number;
    try {
      count = fs.readSync(0, input, 0, input.length, null);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EINTR') continue;
      throw error;
    }
    if (count === 0) process.exit(0);
    const chunk = input.subarray(0, count);
    let start = 0;
    for (let end = chunk.indexOf(10, start); end >= 0; end = chunk.indexOf(10, start)) {
      held.push(chunk.subarray(start, end));
      const line = (held.length === 1 ? held[0]! : Buffer.concat(held)).toString('utf8');
      held = [];
      start = end + 1;
      send(JSON.stringify(apply(JSON.parse(line))) + '\n');
    }
    if (start < count) held.push(Buffer.from(chunk.subarray(start)));
  }
}

/** The program the helper's Node runs (`node -e`): the applier and the loop, both as their source. */
export const WALL_HELPER_PROGRAM = `const fs = require('fs');
(${String(wallHelperLoop)})(fs, ${WORKSPACE_MUTATION_SOURCE}(fs));`;

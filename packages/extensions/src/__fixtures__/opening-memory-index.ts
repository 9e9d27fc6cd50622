// Test support: opens the memory index of a home on request, to race other processes doing the
// same. Prints READY once loaded, then for each line on stdin (a home folder) opens its index,
// brings it up to date and prints `OPENED <files>` or `FAILED <message>` on one line.
import { createInterface } from 'node:readline';
import { MemoryIndex } from '../memory/memory-index.js';

process.stdout.write('READY\n');
for await (const home of createInterface({ input: process.stdin })) {
  try {
    const index = new MemoryIndex({ homeDir: home });
    index.refresh();
    const { files } = index.counts();
    index.close();
    process.stdout.write(`OPENED ${files}\n`);
  } catch (error) {
    process.stdout.write(`FAILED ${(error as Error).message.replaceAll('\n', ' ')}\n`);
  }
}

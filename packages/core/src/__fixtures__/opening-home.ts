// Test support: opens clawsmith homes on request, to race other processes doing the same. It
// prints READY once loaded, then for each line on stdin (a home folder) opens that home and
// prints `OPENED` or `FAILED <message>` on one line.
import { createInterface } from 'node:readline';
import { openClawsmithHome } from '../clawsmith-home.js';

process.stdout.write('READY\n');
for await (const home of createInterface({ input: process.stdin })) {
  try {
    const opened = await openClawsmithHome(home);
    await opened.close();
    process.stdout.write('OPENED\n');
  } catch (error) {
    process.stdout.write(`FAILED ${(error as Error).message.replaceAll('\n', ' ')}\n`);
  }
}

// Test support: a real process that swaps a workspace folder with a symbolic link to an outside
// folder as fast as it can (four renames per round), while a gate file exists, for at most 30 s.
import { spawn } from 'node:child_process';

const SWAPPER = `const fs = require('fs');
const [folder, outside, gate] = process.argv.slice(1);
const hold = folder + '.hold', link = folder + '.link';
fs.symlinkSync(outside, link);
fs.writeSync(1, 'ready');
const end = Date.now() + 30000;
while (Date.now() < end) {
  if (gate && !fs.existsSync(gate)) continue;
  try { fs.renameSync(folder, hold); fs.renameSync(link, folder); fs.renameSync(folder, link); fs.renameSync(hold, folder); } catch {}
}`;

export interface FolderSwapper {
  /** Resolves once the swapper runs. */
  readonly ready: Promise<void>;
  /** Kills the swapper and puts the real folder back in place. */
  stop(): Promise<void>;
}

/** Starts swapping `folder` (absolute) with a link to `outside`; with `gate`, only while that file exists. */
export function startFolderSwapper(folder: string, outside: string, gate = ''): FolderSwapper {
  const child = spawn(process.execPath, ['-e', SWAPPER, folder, outside, gate], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return {
    ready,
    async stop() {
      child.kill('SIGKILL');
      await exited;
      const fs = await import('node:fs');
      const hold = `${folder}.hold`;
      if (fs.existsSync(hold)) {
        if (fs.lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(folder);
        fs.renameSync(hold, folder);
      }
    },
  };
}

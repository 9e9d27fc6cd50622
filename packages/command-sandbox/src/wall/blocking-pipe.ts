import { execFile } from 'node:child_process';
import { closeSync, constants, fstatSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Both ends of one pipe, as blocking file descriptors (closed on exec, like every file Node opens). */
export interface BlockingPipe {
  readonly read: number;
  readonly write: number;
}

/**
 * Opens `count` pipes whose ends block in read(2) and write(2). Node has no pipe(2), and the pipes
 * it makes for a child's stdio are non-blocking on this side, so a reply can only be awaited
 * through the event loop. A named pipe (made by `mkfifo`, a trusted program path) opened here is
 * blocking; its name is removed before this returns, so only the descriptors reach it.
 */
export async function openBlockingPipes(mkfifoProgram: string, count: number): Promise<BlockingPipe[]> {
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-pipes-'));
  const opened: number[] = [];
  // An exit while mkfifo runs (Ctrl-C handled by process.exit) skips the finally below.
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  process.once('exit', removeFolder);
  try {
    const names = Array.from({ length: count }, (_, index) => join(folder, `pipe${index}`));
    await promisify(execFile)(mkfifoProgram, ['-m', '600', ...names], { env: {} });
    return names.map((name) => {
      // Opening one end of a named pipe waits for the other end; O_RDWR never waits (Linux) and
      // stands in as that other end while the real two are opened, then goes.
      const standIn = openSync(name, constants.O_RDWR);
      opened.push(standIn);
      const pipe = { read: openSync(name, constants.O_RDONLY), write: -1 };
      opened.push(pipe.read);
      pipe.write = openSync(name, constants.O_WRONLY);
      opened.push(pipe.write);
      closeSync(standIn);
      opened.splice(opened.indexOf(standIn), 1);
      // The folder is private, but a temporary folder can be one a sandboxed command writes in.
      if (!fstatSync(pipe.read).isFIFO() || fstatSync(pipe.read).ino !== fstatSync(pipe.write).ino)
        throw new Error(`${name} is not the named pipe just made`);
      return pipe;
    });
  } catch (error) {
    for (const descriptor of opened) closeSync(descriptor);
    throw error;
  } finally {
    process.off('exit', removeFolder);
    removeFolder();
  }
}

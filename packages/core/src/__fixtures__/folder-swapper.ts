// Test support: a real process that swaps a workspace folder with a symbolic link to an outside
// folder as fast as it can, from the moment it is told to until it is told to settle. Each swap
// is one atomic renameat2(RENAME_EXCHANGE) (Python's ctypes reaches it; Node cannot): the folder
// name always exists and is, from one system call to the next, the real folder or the link with
// even odds, so a check and the act that follows it see different folders as often as the
// kernel allows. Settled, the real folder is back in place.
import { spawn } from 'node:child_process';
import { lstatSync, renameSync } from 'node:fs';

const SWAPPER = `
import ctypes, os, select, sys, time
folder, outside = sys.argv[1:3]
link = folder + '.link'
os.symlink(outside, link)
libc = ctypes.CDLL(None, use_errno=True)
exchange = lambda: libc.renameat2(-100, folder.encode(), -100, link.encode(), 2)
if exchange() != 0 or exchange() != 0:
    sys.exit('renameat2(RENAME_EXCHANGE) failed: errno %d' % ctypes.get_errno())
def say(text):
    os.write(1, text)
say(b'r')
end = time.monotonic() + 120
flipping = False
while time.monotonic() < end:
    ready, _, _ = select.select([0], [], [], 0 if flipping else 0.5)
    if ready:
        command = os.read(0, 1)
        if not command:
            break
        if command == b'1':
            flipping = True
            exchange()
            say(b's')
        elif command == b'0':
            flipping = False
            if os.path.islink(folder):
                exchange()
            say(b'k')
    if flipping:
        for _ in range(32):
            exchange()
if os.path.islink(folder):
    exchange()
`;

export interface FolderSwapper {
  /** Resolves once the swapper runs; rejects when it could not start (no python3, no renameat2). */
  readonly ready: Promise<void>;
  /** Starts flipping; resolves once the first swap is done. */
  flip(): Promise<void>;
  /** Stops flipping; resolves once the real folder is back in place. */
  settle(): Promise<void>;
  /** Kills the swapper and puts the real folder back in place. */
  stop(): Promise<void>;
}

/** Starts a swapper of `folder` (absolute) with a link to `outside`, idle until {@link FolderSwapper.flip}. */
export function startFolderSwapper(folder: string, outside: string): FolderSwapper {
  const child = spawn('python3', ['-c', SWAPPER, folder, outside], { stdio: ['pipe', 'pipe', 'pipe'] });
  let failure = '';
  child.stderr.on('data', (chunk: Buffer) => (failure += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const waiting: Array<(reply: string) => void> = [];
  let readyReply: (() => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    for (const reply of chunk.toString()) {
      if (reply === 'r') readyReply?.();
      else waiting.shift()?.(reply);
    }
  });
  const ready = new Promise<void>((resolve, reject) => {
    readyReply = resolve;
    child.on('error', reject);
    void exited.then(() => reject(new Error(`the folder swapper ended: ${failure.trim()}`)));
  });
  const ask = (command: string) =>
    new Promise<void>((resolve, reject) => {
      waiting.push(() => resolve());
      void exited.then(() => reject(new Error(`the folder swapper ended: ${failure.trim()}`)));
      child.stdin.write(command);
    });
  return {
    ready,
    flip: () => ask('1'),
    settle: () => ask('0'),
    async stop() {
      child.kill('SIGKILL');
      await exited;
      const link = `${folder}.link`;
      // Killed mid-flip, the real folder may sit at the link's name: exchange them back.
      if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) {
        renameSync(folder, `${folder}.swapped`);
        renameSync(link, folder);
        renameSync(`${folder}.swapped`, link);
      }
    },
  };
}

import { openSync, readFileSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { ReadStream } from 'node:tty';

/**
 * Whether this process is in its terminal's foreground process group. A background job that
 * reads its terminal is stopped by SIGTTIN (`clawsmith web &` would freeze), so the keys are
 * read only in the foreground. Linux tells by `/proc/self/stat` (pgrp, tpgid); elsewhere the
 * answer is yes.
 */
function inForeground(): boolean {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return true;
  }
  // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp session tty_nr tpgid.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[2] === fields[5];
}

/** How often a process in the background checks whether it is in front again (`fg` sends no signal to a running job). */
const FOREGROUND_CHECK_MS = 1_000;

/**
 * Prints a new sign-in URL (`createLoginUrl()`) each time Enter is pressed in the terminal, when
 * `input` is one and this process runs in its foreground. It reads its own handle on the
 * controlling terminal (`/dev/tty`) and closes it whenever the process is not in front: a paused
 * stream would still read ahead, and a background read stops the process (SIGTTIN). Moved to the
 * background (Ctrl-Z then `bg`, which sends SIGCONT) it closes at once; brought to the front
 * (`fg`, also after starting with `&`) it reads again within a second. The terminal stays in line
 * mode, so Ctrl-C still sends SIGINT. Returns whether Enter works, and a function that stops.
 */
export function printLoginUrlsOnEnter(
  input: NodeJS.ReadStream,
  createLoginUrl: () => string,
  write: (text: string) => void,
): { readonly active: boolean; stop(): void } {
  const inactive = { active: false, stop: () => undefined };
  if (!(input as Partial<ReadStream>).isTTY) return inactive;
  let reader: { readonly terminal: ReadStream; readonly lines: Interface } | undefined;
  const close = () => {
    reader?.lines.close();
    reader?.terminal.destroy();
    reader = undefined;
  };
  const open = () => {
    const terminal = new ReadStream(openSync('/dev/tty', 'r'));
    const lines = createInterface({ input: terminal, terminal: false });
    lines.on('line', () => write(`New sign-in URL (works once):\n${createLoginUrl()}\n`));
    terminal.on('error', close);
    reader = { terminal, lines };
  };
  const followJobControl = () => {
    if (!inForeground()) close();
    else if (!reader) open();
  };
  try {
    followJobControl();
  } catch {
    // No controlling terminal to open: no Enter key.
    return inactive;
  }
  const follow = () => {
    try {
      followJobControl();
    } catch {
      close();
    }
  };
  process.on('SIGCONT', follow);
  const timer = setInterval(follow, FOREGROUND_CHECK_MS).unref();
  return {
    active: true,
    stop() {
      clearInterval(timer);
      process.off('SIGCONT', follow);
      close();
    },
  };
}

// Test support: what the host's process table holds, read from /proc (never through the sandbox).
import { readdirSync, readFileSync } from 'node:fs';

/** `pid: command line` of every live (not zombie) host process whose command line holds `marker`. */
export function hostProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = /State:\s+(\w)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (commandLine.includes(marker) && state !== 'Z') found.push(`${entry}: ${commandLine}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

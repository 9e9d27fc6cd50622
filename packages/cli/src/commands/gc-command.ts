import { existsSync } from 'node:fs';
import type { RetentionReport } from '@clawsmith/core';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { terminalStyle } from '../terminal/terminal-style.js';

const gcOptions = z.object({
  home: z.string().optional(),
  dryRun: z.boolean().optional(),
  json: z.boolean().optional(),
});

const out = (text: string) => void process.stdout.write(`${text}\n`);

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The report as a person reads it: what went (or would go), what stays, and from which sessions. */
export function gcReportLines(report: RetentionReport): string[] {
  const { checkpoints, artifacts } = report;
  const verb = report.dryRun ? 'Would remove' : 'Removed';
  const lines = [
    `${verb} ${plural(checkpoints.deletedRestorePoints.length, 'restore point')} (${plural(checkpoints.deletedBlobs, 'stored file version')}, ${size(checkpoints.freedBlobBytes)})` +
      (artifacts
        ? ` and ${plural(artifacts.removed, 'artifact')} (${size(artifacts.freedBytes)})${artifacts.orphanFilesRemoved > 0 ? `, plus ${plural(artifacts.orphanFilesRemoved, 'orphaned artifact file')}` : ''}`
        : '') +
      '.',
    `${report.dryRun ? 'Would keep' : 'Kept'} ${plural(checkpoints.keptRestorePoints, 'restore point')} (${size(checkpoints.keptBlobBytes)})` +
      (artifacts ? ` and ${plural(artifacts.kept, 'artifact')} (${size(artifacts.keptBytes)})` : '') +
      '.',
  ];
  const bySession = new Map<string, number>();
  for (const point of checkpoints.deletedRestorePoints)
    bySession.set(point.sessionId, (bySession.get(point.sessionId) ?? 0) + 1);
  for (const [sessionId, count] of bySession) lines.push(`  ${sessionId}: ${plural(count, 'restore point')}`);
  lines.push(
    `Policy: restore points and artifacts older than 30 days, beyond 100 MiB per session or 1 GiB in all; the newest 5 of each session always stay. (${Math.round(report.durationMs)} ms)`,
  );
  return lines;
}

/** `clawsmith gc [--dry-run] [--json]`: runs retention over the home now. */
export async function gcCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(gcOptions, rawOptions, 'gc');
  const { openClawsmithHome, resolveClawsmithHome, retentionSummary, runRetention } = await import('@clawsmith/core');
  const path = resolveClawsmithHome(options.home);
  if (!existsSync(path)) {
    if (options.json) out(JSON.stringify({ home: path, exists: false }));
    else out(`No clawsmith home at ${path}: nothing to collect.`);
    return EXIT_CODES.ok;
  }
  const home = await openClawsmithHome(options.home);
  try {
    const report = await runRetention({
      checkpoints: home.checkpoints,
      artifacts: home.artifacts,
      dryRun: options.dryRun === true,
    });
    if (options.json)
      out(
        JSON.stringify({
          home: path,
          ...retentionSummary(report),
          removedRestorePoints: report.checkpoints.deletedRestorePoints,
        }),
      );
    else {
      const style = terminalStyle(process.stdout);
      const [first, ...rest] = gcReportLines(report);
      out([style.bold(first ?? ''), ...rest.map((line) => style.dim(line))].join('\n'));
    }
    return EXIT_CODES.ok;
  } finally {
    await home.close();
  }
}

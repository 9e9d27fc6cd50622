// Shared timing helpers for the benchmarks: medians of repeated runs, printed beside a reference
// measured in the same run, because these machines are shared and noisy.
import { performance } from 'node:perf_hooks';

/** Result of timing one operation many times. */
export interface Timing {
  readonly label: string;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly runs: number;
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1));
  return sorted[index] ?? Number.NaN;
}

/** The median of `samples`. */
export function medianOf(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((left, right) => left - right),
    0.5,
  );
}

/** The median and p90 of samples timed elsewhere (interleaved runs, phases of one operation). */
export function timingOf(label: string, samples: readonly number[]): Timing {
  const sorted = [...samples].sort((left, right) => left - right);
  return { label, medianMs: percentile(sorted, 0.5), p90Ms: percentile(sorted, 0.9), runs: sorted.length };
}

/** Runs `operation` `warmup` times untimed, then `runs` times timed; returns median and p90. */
export async function measure(label: string, operation: () => unknown, runs = 20, warmup = 3): Promise<Timing> {
  for (let index = 0; index < warmup; index += 1) await operation();
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await operation();
    samples.push(performance.now() - start);
  }
  return timingOf(label, samples);
}

/** Prints timings as a table with each median's ratio to the reference's. */
export function report(title: string, reference: Timing, timings: readonly Timing[]): void {
  console.log(`\n## ${title}`);
  console.log(`| what | median ms | p90 ms | ratio to ${reference.label} |`);
  console.log('|---|---:|---:|---:|');
  for (const timing of [reference, ...timings]) {
    const ratio = timing.medianMs / reference.medianMs;
    console.log(
      `| ${timing.label} | ${timing.medianMs.toFixed(3)} | ${timing.p90Ms.toFixed(3)} | ${ratio.toFixed(2)}x |`,
    );
  }
}

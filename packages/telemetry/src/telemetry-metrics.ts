import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';

// The GenAI conventions' advised buckets: token counts by powers of four, durations in seconds.
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** The instruments this package records. Names are pinned by the package's public-surface test. */
export interface TelemetryInstruments {
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
  readonly toolDuration: Histogram;
  readonly denials: Counter;
  readonly refusals: Counter;
  readonly undos: Counter;
}

/** Creates the instruments on `meter`. */
export function createInstruments(meter: Meter): TelemetryInstruments {
  return {
    tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    operationDuration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    toolDuration: meter.createHistogram('gen_ai.execute_tool.duration', {
      description: 'Duration of a tool call, from its first decision to its result.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    denials: meter.createCounter('clawsmith.tool.denials', {
      description: 'Tool calls denied by a hook, a permission rule or a person.',
      unit: '{call}',
    }),
    refusals: meter.createCounter('clawsmith.refusals', {
      description: 'Commands refused as catastrophic, and model answers the provider refused.',
      unit: '{refusal}',
    }),
    undos: meter.createCounter('clawsmith.undos', {
      description: 'Restores of a session, its files or both to an earlier turn.',
      unit: '{restore}',
    }),
  };
}

/** Drops attributes whose value is absent (the API would keep `undefined` keys otherwise). */
export function definedAttributes(attributes: Record<string, string | number | boolean | undefined>): Attributes {
  const defined: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) defined[key] = value;
  return defined;
}

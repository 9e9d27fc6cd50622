import { describeReadmeExample } from '@clawsmith/test-utils';

// A cold tsserver takes 15-25 s for its first answer on a loaded 2-core machine.
describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/check-a-file.ts',
  prints: [
    "src/main.ts:3:7 error TS2322: Type 'number' is not assignable to type 'string'.",
    'src/math.ts:1:17  export function add(a: number, b: number): number {',
    'refused: path_outside_workspace',
  ],
  timeoutMs: 180_000,
});

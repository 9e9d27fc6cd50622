import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { probeSandboxExec } from './sandbox-availability.js';

// sandbox-exec exists only on macOS; these stand-ins are real programs that behave as it does
// when a profile applies and when it is refused, so the probe's own logic runs for real.
function program(folder: string, name: string, body: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('probeSandboxExec', () => {
  it('is available only when a deny-by-default profile actually applies', async () => {
    const folder = testdir({});
    const applies = program(
      folder,
      'applies',
      '[ "$1" = -p ] && case "$2" in *"(deny default)"*) shift 2; exec "$@";; esac; exit 64',
    );
    expect(await probeSandboxExec(applies)).toEqual({ available: true, kind: 'sandbox-exec', program: applies });
  });

  it('reports the refusal when the profile cannot be applied (for example inside another sandbox)', async () => {
    const folder = testdir({});
    const refuses = program(
      folder,
      'refuses',
      'echo "sandbox-exec: sandbox_apply: Operation not permitted" >&2; exit 71',
    );
    expect(await probeSandboxExec(refuses)).toEqual({
      available: false,
      detail: `${refuses} failed its self-test: sandbox-exec: sandbox_apply: Operation not permitted`,
    });
    const missing = join(folder, 'missing');
    expect(await probeSandboxExec(missing)).toEqual({ available: false, detail: `${missing} could not be started` });
  });
});

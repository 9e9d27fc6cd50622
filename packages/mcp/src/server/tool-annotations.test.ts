import { resolveToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { toolAnnotations } from './tool-annotations.js';

describe(toolAnnotations, () => {
  it('a file read is read-only, idempotent and closed-world', () => {
    expect(toolAnnotations(resolveToolSecurity({ risk: 'read', capabilities: ['filesystem.read'] }))).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('a file write is destructive but closed-world', () => {
    expect(
      toolAnnotations(resolveToolSecurity({ risk: 'read', capabilities: ['filesystem.read', 'filesystem.write'] })),
    ).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
  });

  it('a session-only write is neither read-only nor destructive', () => {
    expect(toolAnnotations(resolveToolSecurity({ risk: 'read', capabilities: ['session.write'] }))).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it('a tool that claims read but declares nothing is treated as holding everything', () => {
    expect(toolAnnotations(resolveToolSecurity({ risk: 'read' }))).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });
});

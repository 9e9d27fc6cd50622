import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPABILITY_RISK_FLOORS, TOOL_CAPABILITIES, isToolCapability, type ToolCapability } from './tool-capability.js';
import { isToolRisk, riskRank } from './tool-risk.js';
import { resolveToolSecurity } from './tool-security.js';

describe('resolveToolSecurity', () => {
  it('keeps a truthful read-only tool at read without side effects', () => {
    const security = resolveToolSecurity({ risk: 'read', capabilities: ['filesystem.read'] });
    expect(security).toEqual({
      risk: 'read',
      capabilities: ['filesystem.read'],
      sideEffect: false,
      reasons: ["declared risk is 'read'"],
    });
    expect(Object.isFrozen(security)).toBe(true);
    expect(Object.isFrozen(security.capabilities)).toBe(true);
  });

  it('raises a write capability to workspace-write and says why', () => {
    const security = resolveToolSecurity({ risk: 'read', capabilities: ['filesystem.write'] });
    expect(security.risk).toBe('workspace-write');
    expect(security.sideEffect).toBe(true);
    expect(security.reasons).toContain("capability 'filesystem.write' raises the risk to at least 'workspace-write'");
  });

  it.each(['process.execute', 'network', 'credentials', 'external.side-effect'] as const)(
    'raises %s to execute',
    (capability) => {
      expect(resolveToolSecurity({ risk: 'read', capabilities: [capability] }).risk).toBe('execute');
    },
  );

  it('lets a declared risk raise the floor but never lower it', () => {
    expect(resolveToolSecurity({ risk: 'execute', capabilities: ['filesystem.read'] }).risk).toBe('execute');
    expect(resolveToolSecurity({ risk: 'read', capabilities: ['network'] }).risk).toBe('execute');
  });

  it('treats session writes and delegation as side effects without raising the risk', () => {
    const security = resolveToolSecurity({ risk: 'read', capabilities: ['session.write'] });
    expect(security.risk).toBe('read');
    expect(security.sideEffect).toBe(true);
  });

  it.each([
    ['missing capabilities', { risk: 'read' }],
    ['capabilities not an array', { risk: 'read', capabilities: 'filesystem.read' }],
    ['a non-string element', { risk: 'read', capabilities: ['filesystem.read', 7] }],
    ['an unknown capability', { risk: 'read', capabilities: ['filesystem.read', 'filesystem.readonly'] }],
    ['null capabilities', { risk: 'read', capabilities: null }],
  ])('treats %s as every capability at execute', (_case, tool) => {
    const security = resolveToolSecurity(tool);
    expect(security.risk).toBe('execute');
    expect(security.capabilities).toEqual(TOOL_CAPABILITIES);
    expect(security.reasons.join('\n')).toMatch(/treated as holding every capability/);
  });

  it('treats an unknown declared risk as execute', () => {
    const security = resolveToolSecurity({ risk: 'harmless', capabilities: ['filesystem.read'] });
    expect(security.risk).toBe('execute');
    expect(security.reasons[0]).toMatch(/"harmless" is not one of/);
  });

  it('survives getters that throw and values that are not objects', () => {
    const hostile = Object.defineProperty({}, 'capabilities', {
      get() {
        throw new Error('boom');
      },
    });
    expect(resolveToolSecurity(hostile).risk).toBe('execute');
    for (const value of [undefined, null, 0, 'tool', Symbol('x'), () => undefined]) {
      expect(resolveToolSecurity(value).risk).toBe('execute');
    }
  });

  it('never throws and never lowers a floor, whatever it is given (property)', () => {
    const capabilityLike = fc.oneof(fc.constantFrom(...TOOL_CAPABILITIES), fc.string(), fc.anything());
    const toolLike = fc.oneof(
      fc.anything(),
      fc.record({
        risk: fc.oneof(fc.constantFrom('read', 'workspace-write', 'execute'), fc.anything()),
        capabilities: fc.oneof(fc.array(capabilityLike, { maxLength: 12 }), fc.anything()),
      }),
    );
    fc.assert(
      fc.property(toolLike, (tool) => {
        const security = resolveToolSecurity(tool);
        expect(isToolRisk(security.risk)).toBe(true);
        for (const capability of security.capabilities) {
          expect(isToolCapability(capability)).toBe(true);
          expect(riskRank(security.risk)).toBeGreaterThanOrEqual(riskRank(CAPABILITY_RISK_FLOORS[capability]));
        }
        const declared = (tool as { risk?: unknown } | null)?.risk;
        if (isToolRisk(declared)) expect(riskRank(security.risk)).toBeGreaterThanOrEqual(riskRank(declared));
        const raw = (tool as { capabilities?: unknown } | null)?.capabilities;
        const honest = Array.isArray(raw) && raw.every(isToolCapability);
        if (!honest) expect(security.risk).toBe('execute');
        if (honest) expect([...security.capabilities].sort()).toEqual([...new Set(raw as ToolCapability[])].sort());
      }),
      { numRuns: 2_000 },
    );
  });
});

import { resolveToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { decidePermission, type PermissionRule } from './permission-policy.js';

const read = resolveToolSecurity({ risk: 'read', capabilities: ['filesystem.read'] });
const write = resolveToolSecurity({ risk: 'workspace-write', capabilities: ['filesystem.write'] });
const execute = resolveToolSecurity({ risk: 'execute', capabilities: ['process.execute'] });

describe('decidePermission', () => {
  it.each([
    ['default', read, 'allow'],
    ['default', write, 'ask'],
    ['default', execute, 'ask'],
    ['accept-edits', write, 'allow'],
    ['accept-edits', execute, 'ask'],
    ['read-only', read, 'allow'],
    ['read-only', write, 'deny'],
    ['read-only', execute, 'deny'],
    ['full-auto', execute, 'allow'],
  ] as const)('mode %s decides %s', (mode, security, action) => {
    expect(decidePermission(mode, [], { toolName: 'tool', input: {}, security }).action).toBe(action);
  });

  it('lets deny beat ask beat allow among matching rules', () => {
    const rules: PermissionRule[] = [
      { action: 'allow', tool: 'edit_file' },
      { action: 'ask', paths: ['src/**'] },
      { action: 'deny', paths: ['src/secrets/**'], reason: 'secrets stay untouched' },
    ];
    const decide = (path: string) =>
      decidePermission('full-auto', rules, { toolName: 'edit_file', input: { path }, security: write });
    expect(decide('README.md').action).toBe('allow');
    expect(decide('src/a.ts').action).toBe('ask');
    expect(decide('src/secrets/key.ts')).toEqual({
      action: 'deny',
      reason: 'rule deny (paths src/secrets/**): secrets stay untouched',
    });
  });

  it('requires every path a call names to match a path rule (rename from and to)', () => {
    const rules: PermissionRule[] = [{ action: 'allow', paths: ['docs/**'] }];
    const request = (from: string, to: string) => ({ toolName: 'rename_file', input: { from, to }, security: write });
    expect(decidePermission('default', rules, request('docs/a.md', 'docs/b.md')).action).toBe('allow');
    expect(decidePermission('default', rules, request('docs/a.md', 'src/b.md')).action).toBe('ask');
  });

  it('matches command prefixes on word boundaries only', () => {
    const rules: PermissionRule[] = [{ action: 'allow', commandPrefix: 'npm test' }];
    const decide = (command: string) =>
      decidePermission('default', rules, { toolName: 'run_command', input: { command }, security: execute }).action;
    expect(decide('npm test')).toBe('allow');
    expect(decide('npm test -- --watch=false')).toBe('allow');
    expect(decide('npm testx')).toBe('ask');
    expect(decide('npm install evil')).toBe('ask');
  });

  it('matches by capability and by tool glob', () => {
    const rules: PermissionRule[] = [
      { action: 'deny', capability: 'network' },
      { action: 'allow', tool: 'mcp_*' },
    ];
    const network = resolveToolSecurity({ risk: 'execute', capabilities: ['network'] });
    expect(decidePermission('full-auto', rules, { toolName: 'fetch_url', input: {}, security: network }).action).toBe(
      'deny',
    );
    expect(decidePermission('default', rules, { toolName: 'mcp_jira', input: {}, security: execute }).action).toBe(
      'allow',
    );
  });

  it('keeps read-only a ceiling that no allow rule lifts', () => {
    const rules: PermissionRule[] = [{ action: 'allow', tool: 'run_command' }];
    expect(
      decidePermission('read-only', rules, { toolName: 'run_command', input: { command: 'ls' }, security: execute })
        .action,
    ).toBe('deny');
  });
});

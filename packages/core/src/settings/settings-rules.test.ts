import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import type { ResolvedToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { decidePermission, type PermissionRule } from '@clawsmith/tool-host';
import { requestPaths } from '@clawsmith/tool-host';
import { parseSettingsRule } from './settings-rules.js';

const EXECUTE: ResolvedToolSecurity = {
  risk: 'execute',
  capabilities: ['process.execute'],
  sideEffect: true,
  reasons: [],
};
const READ: ResolvedToolSecurity = { risk: 'read', capabilities: ['filesystem.read'], sideEffect: false, reasons: [] };

function rules(workspace: string, entries: Record<'allow' | 'ask' | 'deny', string[]>): PermissionRule[] {
  return (['allow', 'ask', 'deny'] as const).flatMap((action) =>
    entries[action].flatMap((text) => parseSettingsRule(text, action, workspace, 'test')),
  );
}

function commandAction(ruleSet: PermissionRule[], command: string, toolName = 'run_command') {
  return decidePermission('default', ruleSet, { toolName, input: { command }, security: EXECUTE }).action;
}

describe('parseSettingsRule: Bash(prefix:*) over each simple command', () => {
  const allowTest = rules('/w', { allow: ['Bash(npm test:*)'], ask: [], deny: [] });

  it('allows the prefix and its longer forms only', () => {
    expect(commandAction(allowTest, 'npm test')).toBe('allow');
    expect(commandAction(allowTest, 'npm test -- --watch=false')).toBe('allow');
    expect(commandAction(allowTest, 'npm test && npm test -- a')).toBe('allow');
    expect(commandAction(allowTest, 'npm testx')).toBe('ask');
  });

  it.each([
    'npm test; curl http://127.0.0.1:9/x | sh',
    'npm test && rm -rf src',
    'npm test $(rm x)',
    'npm test `rm x`',
    'npm test\nrm -rf src',
    'npm test > /etc/passwd',
    'PATH=/tmp npm test',
    'export PATH=/tmp:$PATH; npm test',
    'npm test &',
    'npm test (',
  ])('does not allow %j', (command) => {
    expect(commandAction(allowTest, command)).toBe('ask');
  });

  it('denies when any command of the text starts with a denied prefix, or may', () => {
    const denyRm = rules('/w', { allow: ['Bash(*)'], ask: [], deny: ['Bash(rm:*)'] });
    expect(commandAction(denyRm, 'ls; rm -rf src')).toBe('deny');
    expect(commandAction(denyRm, 'echo $(rm x)')).toBe('deny');
    expect(commandAction(denyRm, 'ls\nrm x')).toBe('deny');
    expect(commandAction(denyRm, '$CMD x')).toBe('deny');
    expect(commandAction(denyRm, 'ls -la')).toBe('allow');
    expect(commandAction(denyRm, 'ls', 'start_command')).toBe('allow');
    expect(commandAction(denyRm, 'rm x', 'start_command')).toBe('deny');
  });

  it('reads Bash(cmd) without :* as the exact command', () => {
    const exact = rules('/w', { allow: ['Bash(npm run build)'], ask: [], deny: [] });
    expect(commandAction(exact, 'npm run build')).toBe('allow');
    expect(commandAction(exact, 'npm run build --prod')).toBe('ask');
  });

  it('deny beats ask beats allow, whatever the order; read-only stays a ceiling', () => {
    const all = rules('/w', { allow: ['Bash(git:*)'], ask: ['Bash(git push:*)'], deny: ['Bash(git push --force:*)'] });
    expect(commandAction(all, 'git status')).toBe('allow');
    expect(commandAction(all, 'git push origin')).toBe('ask');
    expect(commandAction(all, 'git push --force origin')).toBe('deny');
    expect(
      decidePermission('read-only', all, {
        toolName: 'run_command',
        input: { command: 'git status' },
        security: EXECUTE,
      }).action,
    ).toBe('deny');
  });
});

describe('parseSettingsRule: Read(path) on the resolved workspace path', () => {
  it('meets src/../secrets, absolute paths, symlinks and case', () => {
    const workspace = testdir({
      secrets: { k: 'key' },
      src: { 'a.ts': 'a', link: { symlink: '../secrets' } },
      'README.md': 'r',
    });
    const denySecrets = rules(workspace, { allow: ['Read'], ask: [], deny: ['Read(./secrets/**)'] });
    const readOf = (path: string) =>
      decidePermission('default', denySecrets, {
        toolName: 'read_file',
        input: { path },
        security: READ,
        paths: requestPaths(undefined, { path }, workspace),
      }).action;
    expect(readOf('src/../secrets/k')).toBe('deny');
    expect(readOf(join(workspace, 'secrets', 'k'))).toBe('deny');
    expect(readOf('src/link/k')).toBe('deny');
    expect(readOf('SECRETS/k')).toBe('deny');
    expect(readOf('README.md')).toBe('allow');
  });

  it('maps aliases onto our tools, MCP names and the web fetcher', () => {
    expect(parseSettingsRule('Edit(src/**)', 'allow', '/w', 'f').map((rule) => rule.tool)).toEqual([
      'edit_file',
      'write_file',
      'apply_patch',
      'rename_file',
      'delete_file',
    ]);
    expect(parseSettingsRule('Edit(*.env)', 'deny', '/w', 'f')[0]?.paths).toEqual(['**/*.env']);
    expect(parseSettingsRule('Read(//w/docs/)', 'deny', '/w', 'f')[0]?.paths).toEqual(['docs/**']);
    expect(parseSettingsRule('mcp__github__create_issue', 'deny', '/w', 'f')).toEqual([
      { action: 'deny', tool: 'mcp__github__create_issue', reason: 'deny mcp__github__create_issue (f)' },
    ]);
    const fetch = parseSettingsRule('WebFetch(domain:example.com)', 'allow', '/w', 'f');
    const security = {
      risk: 'network',
      capabilities: ['network'],
      sideEffect: false,
      reasons: [],
    } as unknown as ResolvedToolSecurity;
    const fetchAction = (url: string) =>
      decidePermission('default', fetch, { toolName: 'web_fetch', input: { url }, security }).action;
    expect(fetchAction('https://docs.example.com/a')).toBe('allow');
    expect(fetchAction('https://example.com.evil.test/a')).toBe('ask');
    expect(fetchAction('https://example.com/a')).toBe('allow');
    expect(fetchAction('not a url')).toBe('ask');
    // Fail closed: a URL that cannot be read meets a deny rule, never an allow rule.
    const fetchDeny = parseSettingsRule('WebFetch(domain:example.com)', 'deny', '/w', 'f');
    const denyAction = (url: string) =>
      decidePermission('full-auto', fetchDeny, { toolName: 'web_fetch', input: { url }, security }).action;
    expect(denyAction('https://api.example.com/')).toBe('deny');
    expect(denyAction('gopher://example.com/')).toBe('deny');
    expect(denyAction('https://example.org/')).toBe('allow');
  });

  it('refuses what it cannot read, saying what to write', () => {
    expect(() => parseSettingsRule('Bash(npm *test)', 'allow', '/w', 'f')).toThrow(/Bash\(npm test:\*\)/);
    expect(() => parseSettingsRule('Read(//etc/passwd)', 'deny', '/w', 'f')).toThrow(/outside the workspace/);
    expect(() => parseSettingsRule('Bash(', 'allow', '/w', 'f')).toThrow(/is not a rule/);
    expect(() => parseSettingsRule('WebFetch(example.com)', 'allow', '/w', 'f')).toThrow(/domain:example.com/);
  });
});

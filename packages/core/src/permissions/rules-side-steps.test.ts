// The permission rules as the core applies them to the real workspace tools and the real sandbox:
// every spelling that once side-stepped a rule, written to real files.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import type { PermissionRule } from '@clawsmith/tool-host';

const DENY_SECRETS: PermissionRule[] = [{ action: 'deny', paths: ['secrets/**'], reason: 'secrets stay untouched' }];

async function completedResults(harness: Awaited<ReturnType<typeof createHarness>>) {
  const events = await harness.eventsOf('tool.completed');
  return events.map((event) => {
    const completed = event as unknown as { status: string; output: string };
    return { status: completed.status, content: completed.output };
  });
}

describe('permission rules applied by the core', () => {
  it('deny the path the tool touches, however it is spelled', async () => {
    const harness = await createHarness({
      permissionMode: 'full-auto',
      rules: DENY_SECRETS,
      files: { secrets: { 'k0.txt': 'old' }, src: { 'a.ts': 'a', link: { symlink: '../secrets' } } },
      responses: [
        {
          toolCalls: [
            call('1', 'write_file', { path: 'secrets/k1.txt', content: 'x' }),
            call('2', 'write_file', { path: 'src/../secrets/k2.txt', content: 'x' }),
            call('3', 'write_file', { path: 'secrets/./k3.txt', content: 'x' }),
            call('5', 'write_file', { path: 'src/link/k5.txt', content: 'x' }),
            call('6', 'write_file', { path: 'SECRETS/k6.txt', content: 'x' }),
            call('7', 'rename_file', { from: 'src/a.ts', to: 'secrets/a.ts' }),
            call('8', 'read_file', { path: './secrets/../secrets/k0.txt' }),
          ],
        },
        { text: 'done' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write secrets' });
    const results = await completedResults(harness);
    expect(results.map((result) => result.status)).toEqual(Array(7).fill('denied'));
    for (const name of ['k1.txt', 'k2.txt', 'k3.txt', 'k5.txt', 'a.ts'])
      expect(existsSync(join(harness.workspace, 'secrets', name))).toBe(false);
    expect(existsSync(join(harness.workspace, 'src', 'a.ts'))).toBe(true);
  });

  it('leaves a denied folder out of searches and globs, and denies a search inside it', async () => {
    const harness = await createHarness({
      permissionMode: 'default',
      rules: DENY_SECRETS,
      files: { secrets: { 'k.txt': 'TOKEN=hunter2' }, src: { 'a.ts': 'const TOKEN = 1;' } },
      responses: [
        {
          toolCalls: [
            call('1', 'search_files', { query: 'TOKEN' }),
            call('2', 'glob_files', { pattern: '**/*.txt' }),
            call('3', 'search_files', { query: 'TOKEN', path: 'secrets' }),
            call('4', 'glob_files', { pattern: 'secrets/**' }),
          ],
        },
        { text: 'done' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'find tokens' });
    const [search, glob, inside, insideGlob] = await completedResults(harness);
    expect(search?.status).toBe('success');
    expect(search?.content).toContain('src/a.ts');
    expect(search?.content).not.toContain('hunter2');
    expect(search?.content).toContain('Left out by permission rules: 1 path matching secrets/**.');
    expect(glob?.content).not.toContain('secrets/k.txt');
    expect(glob?.content).toContain('Left out by permission rules');
    expect(inside?.status).toBe('denied');
    expect(insideGlob?.status).toBe('denied');
  });

  it('allows a command prefix only for one simple command: the chained command never runs', async () => {
    const harness = await createHarness({
      permissionMode: 'default',
      rules: [{ action: 'allow', commandPrefix: 'echo ok' }],
      files: { src: { 'a.ts': 'a' } },
      responses: [
        {
          toolCalls: [
            call('1', 'run_command', { command: 'echo ok' }),
            call('2', 'run_command', { command: 'echo ok && rm -rf src' }),
            call('3', 'run_command', { command: 'echo ok; rm -rf src' }),
            call('4', 'run_command', { command: 'echo ok $(rm -rf src)' }),
          ],
        },
        { text: 'done' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'test' });
    const results = await completedResults(harness);
    expect(results.map((result) => result.status)).toEqual(['success', 'denied', 'denied', 'denied']);
    expect(readFileSync(join(harness.workspace, 'src', 'a.ts'), 'utf8')).toBe('a');
  });
});

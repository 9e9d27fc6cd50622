// Secret files (.env, private keys) as the core guards them with the real workspace tools.
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import type { ApprovalRequest } from '@clawsmith/tool-host';
import type { PermissionMode } from '@clawsmith/tool-host';

const FILES = {
  '.env': 'API_TOKEN=hunter2-secret\n',
  '.env.example': 'API_TOKEN=changeme\n',
  'deploy/server.pem': '-----BEGIN PRIVATE KEY-----\nhunter2-secret\n',
  'src/config.ts': 'export const token = process.env.API_TOKEN; // hunter2-secret is not here\n',
};

async function run(mode: PermissionMode, approve?: (request: ApprovalRequest) => 'allow' | 'deny') {
  const asked: string[] = [];
  const harness = await createHarness({
    permissionMode: mode,
    files: FILES,
    ...(approve
      ? {
          approvalHandler: async (request: ApprovalRequest) => {
            asked.push(request.summary);
            return approve(request);
          },
        }
      : {}),
    responses: [
      {
        toolCalls: [
          call('env', 'read_file', { path: '.env' }),
          call('example', 'read_file', { path: '.env.example' }),
          call('pem', 'read_file', { path: 'deploy/../deploy/server.pem' }),
          call('search', 'search_files', { query: 'hunter2' }),
        ],
      },
      { text: 'done' },
    ],
  });
  await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'read secrets' });
  const completed = await harness.eventsOf('tool.completed');
  const byId = Object.fromEntries(
    completed.map((event) => {
      const result = event.result as { status: string; code?: string };
      return [event.toolCallId as string, { status: result.status, code: result.code, output: String(event.output) }];
    }),
  );
  return { byId, asked };
}

describe('secret files', () => {
  it('ask before a read in default mode (denied without anyone to ask); search leaves them out and says so', async () => {
    const { byId } = await run('default');
    expect(byId.env).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(byId.env!.output).toContain('credentials');
    expect(byId.pem).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(byId.example).toMatchObject({ status: 'success' });
    expect(byId.example!.output).toContain('changeme');
    expect(byId.search).toMatchObject({ status: 'success' });
    expect(byId.search!.output).toContain('src/config.ts');
    expect(byId.search!.output).not.toMatch(/\.env:|server\.pem/);
    expect(byId.search!.output).toContain('Left out by permission rules');
  });

  it('are read once a person approves', async () => {
    const { byId, asked } = await run('default', () => 'allow');
    expect(asked).toHaveLength(2);
    expect(byId.env).toMatchObject({ status: 'success' });
    expect(byId.env!.output).toContain('hunter2-secret');
  });

  it('are denied in read-only mode and read in full-auto mode', async () => {
    const readOnly = await run('read-only');
    expect(readOnly.byId.env).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(readOnly.byId.example).toMatchObject({ status: 'success' });
    const fullAuto = await run('full-auto');
    expect(fullAuto.byId.env).toMatchObject({ status: 'success' });
    expect(fullAuto.byId.search!.output).toContain('.env');
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApprovalBroker, createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider } from '@clawsmith/providers';
import { startWebServer } from '@clawsmith/web';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-web-example-'));
const workspace = join(scratch, 'project');
mkdirSync(workspace);

const home = await openClawsmithHome(join(scratch, 'home'));
const core = createAgentCore({
  db: home.db,
  checkpoints: home.checkpoints,
  artifacts: home.artifacts,
  // A scripted model; createOpenAIProvider for a real one.
  provider: createScriptedProvider({
    script: {
      responses: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'hello\n' } }] },
        { text: 'Wrote notes.md.' },
      ],
    },
  }),
  builtinTools: createBuiltinTools(),
  approvals: new ApprovalBroker(), // the page and programs answer the turns' approvals through core.approvals
});
const server = await startWebServer({ core, home, workspaces: [workspace] });
console.log(server.loginUrl.startsWith(`${server.origin}/#token=`) ? 'sign-in URL ready' : server.loginUrl);

// What the page does, as a program: the API token in a header instead of the sign-in cookie.
async function api<Answer>(path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Answer;
}

try {
  const { sessionId } = await api<{ sessionId: string }>('/api/sessions', { workspace, prompt: 'Write notes.md' });
  let approvals: { id: string; toolName: string }[] = [];
  while (approvals.length === 0) {
    await sleep(50); // a program could follow GET /api/sessions/:id/events/stream instead
    ({ approvals } = await api<{ approvals: typeof approvals }>(`/api/sessions/${sessionId}/approvals`));
  }
  console.log(`asked: ${approvals[0]!.toolName}`);
  await api(`/api/sessions/${sessionId}/approvals/${approvals[0]!.id}`, { answer: 'allow' });
  let status = 'running';
  while (status === 'running') {
    await sleep(50);
    ({ status } = await api<{ status: string }>(`/api/sessions/${sessionId}`));
  }
  console.log(`turn ${status}; notes.md: ${readFileSync(join(workspace, 'notes.md'), 'utf8').trim()}`);
} finally {
  await server.close();
  await home.close();
  rmSync(scratch, { recursive: true, force: true });
}

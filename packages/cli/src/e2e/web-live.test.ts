import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startWeb, stop } from './web-process.js';

describe('clawsmith web', () => {
  it('prints a sign-in URL for 127.0.0.1, serves the home and stops cleanly on Ctrl-C', async () => {
    const home = testdir();
    const web = await startWeb(home);
    const unauthorised = await fetch(`${web.origin}/api/sessions`);
    expect(unauthorised.status).toBe(401);
    const listed = await fetch(`${web.origin}/api/sessions`, { headers: { authorization: `Bearer ${web.token}` } });
    expect(await listed.json()).toEqual({ sessions: [], nextOffset: null });
    stop(web.child);
    expect(await web.exited).toBe(0);
    expect(web.output().stderr).toContain('clawsmith web: stopping');
  });

  it('streams every event a separate `clawsmith run` writes, each sequence exactly once and in order', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'a\n' });
    const first = await runCli(
      [
        'run',
        '--json',
        '--workspace',
        workspace,
        '--script',
        writeScript(home, [{ text: 'ready' }], 'first.json'),
        'start',
      ],
      { home },
    );
    expect(first.code).toBe(0);
    const sessionId = String(parseJsonLines(first.stdout)[0]!.sessionId);

    // 49 model responses of 10 todo_write calls each, then a final answer: over 2,000 events.
    const responses: unknown[] = [];
    for (let step = 0; step < 49; step += 1) {
      responses.push({
        toolCalls: Array.from({ length: 10 }, (_, call) => ({
          id: `call_${step}_${call}`,
          name: 'todo_write',
          arguments: { todos: [{ content: `step ${step} call ${call}`, status: 'pending' }] },
        })),
      });
    }
    responses.push({ text: 'All done.' });
    const script = writeScript(home, responses, 'long.json');

    const web = await startWeb(home);
    const stream = await fetch(`${web.origin}/api/sessions/${sessionId}/events/stream`, {
      headers: { authorization: `Bearer ${web.token}` },
    });
    expect(stream.status).toBe(200);
    const run = runCli(
      ['run', '--json', '--session', sessionId, '--permission-mode', 'full-auto', '--script', script, 'go'],
      { home },
    );

    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    const received: number[] = [];
    let buffer = '';
    let finalSequence = Number.POSITIVE_INFINITY;
    void run.then((result) => {
      const events = parseJsonLines(result.stdout);
      finalSequence = Number(events.at(-1)!.sequence);
    });
    while (received.at(-1) !== finalSequence) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary: number;
      while ((boundary = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) received.push((JSON.parse(data.slice(6)) as { sequence: number }).sequence);
      }
      if (received.length > 0 && received.at(-1) === finalSequence) break;
    }
    await reader.cancel();
    const result = await run;
    expect(result.code).toBe(0);
    expect(finalSequence).toBeGreaterThan(2_000);
    expect(received).toEqual(Array.from({ length: finalSequence }, (_, index) => index + 1));
    stop(web.child);
    expect(await web.exited).toBe(0);
  }, 120_000);

  it('explains its options in --help', async () => {
    const home = testdir();
    const help = await runCli(['web', '--help'], { home });
    expect(help.code).toBe(0);
    for (const option of [
      '--port',
      '--host',
      '--allowed-host',
      '--script',
      '--provider',
      '--permission-mode',
      '--home',
    ])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toMatch(/Ctrl-C stops the server/);
  });
});

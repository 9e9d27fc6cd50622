import { spawn, type IPty } from '@lydell/node-pty';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, childEnvironment, parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startWeb, stop } from './web-process.js';

/** `POST /api/login` with a sign-in code, as the page sends it. */
function signIn(origin: string, code: string) {
  return fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ token: code }),
  });
}

const errorCode = async (response: Response) =>
  `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`;

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

  it('signs in once with the printed code, keeps it apart from the API token, and never prints that token', async () => {
    const home = testdir();
    const web = await startWeb(home);
    const { stdout } = web.output();
    expect(stdout).toContain('it works once, within 10 minutes');
    expect(stdout).toContain('API: Authorization: Bearer <the token in CLAWSMITH_WEB_TOKEN>');
    expect(stdout).not.toContain(web.token);
    // stdin is not a terminal here: no Enter key to offer.
    expect(stdout).not.toContain('Press Enter');

    const signedIn = await signIn(web.origin, web.signInCode);
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${web.origin}/api/sessions`, { headers: { cookie } })).status).toBe(200);
    expect(await errorCode(await signIn(web.origin, web.signInCode))).toBe('401 sign_in_code_used');
    expect(await errorCode(await signIn(web.origin, web.token))).toBe('401 unauthorized');
    const codeAsBearer = await fetch(`${web.origin}/api/sessions`, {
      headers: { authorization: `Bearer ${web.signInCode}` },
    });
    expect(await errorCode(codeAsBearer)).toBe('401 unauthorized');
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
    let runEnded = false;
    const ended = run.then((result) => {
      const events = parseJsonLines(result.stdout);
      finalSequence = Number(events.at(-1)!.sequence);
      runEnded = true;
    });
    // The stream often delivers the last event before the run's process has exited: once the run
    // ends, the loop looks again at what it has instead of waiting for a next chunk, which would
    // be the stream's keep-alive, 15 s later.
    let nextChunk = reader.read();
    while (received.at(-1) !== finalSequence) {
      const chunk = await (runEnded ? nextChunk : Promise.race([nextChunk, ended.then(() => undefined)]));
      if (chunk === undefined) continue;
      nextChunk = reader.read();
      const { value, done } = chunk;
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

  it('refuses a weak CLAWSMITH_WEB_TOKEN before it listens', async () => {
    const home = testdir();
    const refused = await runCli(['web'], { home, env: { CLAWSMITH_WEB_TOKEN: 'short' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('invalid_token');
    expect(refused.stderr).toContain('CLAWSMITH_WEB_TOKEN must be 16 to 512 visible ASCII characters');
    expect(refused.stdout).not.toContain('http://');
  });

  it('prints a new single-use sign-in URL each time Enter is pressed in its terminal; Ctrl-C still stops it', async () => {
    const home = testdir();
    const pty: IPty = spawn(process.execPath, [BIN, 'web', '--home', home], {
      name: 'xterm-256color',
      cols: 200,
      rows: 40,
      cwd: home,
      env: childEnvironment(home),
    });
    let screen = '';
    pty.onData((data) => (screen += data));
    const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    onTestFinished(() => {
      try {
        pty.kill();
      } catch {
        // already gone
      }
    });
    const urls = () => [...screen.matchAll(/(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]{43})/g)];
    await expect
      .poll(() => screen, { timeout: 60_000 })
      .toContain('Press Enter here (with clawsmith web in the foreground) for a new sign-in URL.');
    expect(screen).toContain('API: programs need CLAWSMITH_WEB_TOKEN');
    const [printed] = urls();
    const origin = printed![1]!;
    pty.write('\r');
    await expect.poll(() => urls().length, { timeout: 30_000 }).toBe(2);
    pty.write('\r');
    await expect.poll(() => urls().length, { timeout: 30_000 }).toBe(3);
    const codes = urls().map((match) => match[2]!);
    expect(new Set(codes).size).toBe(3);
    expect(screen).toContain('New sign-in URL (works once):');
    expect((await signIn(origin, codes[1]!)).status).toBe(200);
    expect(await errorCode(await signIn(origin, codes[1]!))).toBe('401 sign_in_code_used');
    expect((await signIn(origin, codes[0]!)).status).toBe(200);
    expect((await signIn(origin, codes[2]!)).status).toBe(200);
    pty.write('\u0003');
    expect(await exited).toBe(0);
    expect(screen).toContain('clawsmith web: stopping');
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
      'CLAWSMITH_WEB_TOKEN',
      'Press Enter',
    ])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toMatch(/Ctrl-C stops the server/);
  });
});

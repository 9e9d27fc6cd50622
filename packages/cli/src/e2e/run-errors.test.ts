import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

describe('clawsmith run, when it cannot do what was asked', () => {
  it('says which variable to set for a missing API key, and points to the demo and --script', async () => {
    const home = testdir();
    const run = await runCli(['run', '--provider', 'openai', '--model', 'gpt-4.1', '--workspace', home, 'hi'], {
      home,
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('OPENAI_API_KEY');
    expect(run.stderr).toContain('clawsmith demo');
    expect(run.stderr).toContain('--script');
    const anthropic = await runCli(
      ['run', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--workspace', home, 'hi'],
      { home },
    );
    expect(anthropic.stderr).toContain('ANTHROPIC_API_KEY');
  });

  it('asks for a model when none is chosen (exit 2), and for --model with --provider', async () => {
    const home = testdir();
    const none = await runCli(['run', '--workspace', home, 'hi'], { home });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--script FILE.*--provider openai\|anthropic/s);
    expect(none.stderr).toContain('clawsmith demo');
    const noModel = await runCli(['run', '--provider', 'openai', '--workspace', home, 'hi'], { home });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('--model');
  });

  it('names the script file that cannot be read or parsed, and leaves the home untouched', async () => {
    const home = testdir();
    const workspace = testdir();
    const missing = await runCli(
      ['run', '--json', '--script', join(home, 'nope.json'), '--workspace', workspace, 'hi'],
      { home },
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('nope.json');
    expect(missing.stderr).toContain('[script_unreadable]');
    writeFileSync(join(home, 'bad.json'), '{"responses": [ {"text": "a"} {"text": "b"} ]}');
    const bad = await runCli(['run', '--script', join(home, 'bad.json'), '--workspace', workspace, 'hi'], { home });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.json:1:\d+: not valid JSON/);
    expect(readdirSync(home).sort()).toEqual(['bad.json']);
  });

  it('refuses a workspace that does not exist and a prompt that is empty', async () => {
    const home = testdir();
    const script = writeScript(home, [{ text: 'x' }]);
    const noFolder = await runCli(['run', '--script', script, '--workspace', join(home, 'missing'), 'hi'], { home });
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain('[workspace_not_found]');
    const empty = await runCli(['run', '--script', script, '--workspace', home], { home, input: '   \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('[prompt_required]');
    const unknownSession = await runCli(['run', '--script', script, '--session', 'no-such-session', 'hi'], { home });
    expect(unknownSession.code).toBe(1);
    expect(unknownSession.stderr).toContain('no-such-session');
  });

  it('exits non-zero with the reason on stderr when the model request fails, with --json output still parseable', async () => {
    // A local OpenAI-compatible server that rejects every request (400: not retried).
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'model "nope" not found', type: 'invalid_request_error' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const home = testdir();
    const run = await runCli(
      ['run', '--json', '--provider', 'openai', '--model', 'nope', '--workspace', testdir(), 'hi'],
      {
        home,
        env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the turn did not complete \(failed\)/);
    const events = parseJsonLines(run.stdout);
    expect(events.map((event) => event.type)).toContain('request.failed');
    expect(events.at(-1)).toMatchObject({ type: 'turn.completed', status: 'failed' });
  });

  it('exits 1 with a clear line when the answer was cut at the token limit or ended by the provider', async () => {
    const home = testdir();
    const workspace = testdir();
    const cut = writeScript(home, [{ text: 'Let me expl', finishReason: 'length' }], 'cut.json');
    const truncated = await runCli(['run', '--script', cut, '--workspace', workspace, 'explain'], { home });
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/the turn did not complete \(incomplete\): The model's answer was cut off/);
    expect(truncated.stderr).toContain('[model_output_truncated]');
    const refused = writeScript(home, [{ text: '', finishReason: 'error' }], 'refused.json');
    const failed = await runCli(['run', '--json', '--script', refused, '--workspace', workspace, 'hi'], { home });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('[model_response_refused]');
    expect(parseJsonLines(failed.stdout).at(-1)).toMatchObject({ type: 'turn.completed', status: 'failed' });
  });

  it('rejects unknown options and bad choices as usage errors (exit 2)', async () => {
    const home = testdir();
    const bogus = await runCli(['run', '--frobnicate'], { home });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("unknown option '--frobnicate'");
    const mode = await runCli(['run', '--permission-mode', 'yolo', 'x'], { home });
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('default, accept-edits, read-only, full-auto');
  });
});

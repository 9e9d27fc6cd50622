import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startPostgresServer } from './postgres-server.js';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string, waitMs = 60_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the test PostgreSQL server', () => {
  it('is stopped and its folder removed by stop()', async () => {
    const server = await startPostgresServer();
    const port = Number(new URL(server.url).port);
    expect(await accepts(port)).toBe(true);
    await server.stop();
    expect(existsSync(server.folder)).toBe(false);
    expect(await accepts(port)).toBe(false);
  });

  it('does not outlive a process killed before it stopped the server', async () => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@clawsmith/source',
        '--import',
        'tsx',
        join(import.meta.dirname, '__fixtures__/start-and-wait.ts'),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => (output += text));
    await until(() => output.includes('\n') || child.exitCode !== null, "the child's server");
    const { folder, url } = JSON.parse(output) as { folder: string; url: string };
    const port = Number(new URL(url).port);
    expect(existsSync(join(folder, 'data', 'postmaster.pid'))).toBe(true);
    expect(await accepts(port)).toBe(true);

    child.kill('SIGKILL');
    await once(child, 'exit');
    await until(() => !existsSync(folder), 'the folder to be removed');
    expect(await accepts(port)).toBe(false);
  });
});

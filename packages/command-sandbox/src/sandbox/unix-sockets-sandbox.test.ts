// Host Unix sockets as the real sandbox treats them: a server listening in a folder the sandbox
// does not hide is unreachable without the network option (socat, node), while loopback TCP and
// the socket pairs that pipe processes together keep working.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCommand } from '../index.js';

const packageRoot = new URL('../..', import.meta.url).pathname;
// The sandbox always hides these; a socket there would be out of reach without the filter.
const alwaysHidden = /^\/(tmp|var\/tmp|run|dev|proc)(\/|$)/.test(packageRoot);

/** A real Unix socket server outside /tmp, /run and the home folders, answering `host-answer`. */
async function hostSocketServer(): Promise<{ path: string; connections: () => number }> {
  mkdirSync(join(packageRoot, 'test-results'), { recursive: true });
  const folder = mkdtempSync(join(packageRoot, 'test-results', 'sock-'));
  const path = join(folder, 's.sock');
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.end('host-answer\n');
  });
  await new Promise<void>((listening) => server.listen(path, listening));
  onTestFinished(async () => {
    await new Promise((closed) => server.close(closed));
    rmSync(folder, { recursive: true, force: true });
  });
  return { path, connections: () => connections };
}

const NODE_CONNECT = (path: string) =>
  `node -e "require('net').connect(${JSON.stringify(path).replaceAll('"', "'")}).on('data', (d) => process.stdout.write('got ' + d)).on('error', (e) => { console.log('node:', e.code); process.exit(3); })"`;

describe('Unix sockets in the sandbox', () => {
  it.skipIf(alwaysHidden)(
    'refuses a host Unix socket in a visible folder without the network option, and reaches it with it',
    async () => {
      const server = await hostSocketServer();
      const workspace = testdir({ 'a.txt': 'a' });
      // hiddenPaths [] leaves the home folders visible, in case the repository lives under one.
      const command = `socat - UNIX-CONNECT:${server.path} </dev/null; echo "socat exit $?"; ${NODE_CONNECT(server.path)}; echo "node exit $?"`;
      const denied = await runCommand({ hiddenPaths: [] }, { workspaceRoot: workspace, command });
      expect(denied.output).not.toContain('host-answer');
      expect(denied.output).toMatch(/socat.*Operation not permitted/);
      expect(denied.output).toContain('socat exit 1');
      expect(denied.output).toContain('node: EPERM');
      expect(denied.output).toContain('node exit 3');
      expect(server.connections()).toBe(0);

      const allowed = await runCommand({ hiddenPaths: [], network: true }, { workspaceRoot: workspace, command });
      expect(allowed.output).toContain('host-answer');
      expect(allowed.output).toContain('got host-answer');
      expect(server.connections()).toBe(2);
    },
  );

  it('keeps loopback TCP, child-process pipes and IPC working', async () => {
    const workspace = testdir({
      'tcp.js':
        "const net = require('net');\n" +
        "const server = net.createServer((s) => s.end('tcp-ok')).listen(0, '127.0.0.1', () => {\n" +
        "  net.connect(server.address().port, '127.0.0.1').on('data', (d) => { console.log(String(d)); server.close(); });\n" +
        '});\n',
      'children.js':
        "const { execFileSync, fork } = require('child_process');\n" +
        "console.log(execFileSync('echo', ['pipe-ok']).toString().trim());\n" +
        "const child = fork(__dirname + '/child.js');\n" +
        "child.on('message', (m) => { console.log(m); child.disconnect(); });\n",
      'child.js': "process.send('ipc-ok');\n",
    });
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: 'node tcp.js && node children.js && git --version >/dev/null && echo git-ok',
      },
    );
    expect(result.exitCode).toBe(0);
    expect(result.output.split('\n').filter(Boolean)).toEqual(['tcp-ok', 'pipe-ok', 'ipc-ok', 'git-ok']);
  });

  it.skipIf(!existsSync('/usr/bin/python3'))(
    'refuses datagram socket pairs (they can send to any named socket) and allows stream pairs',
    async () => {
      const workspace = testdir({
        'pairs.py':
          'import socket\n' +
          'for kind in ("SOCK_STREAM", "SOCK_SEQPACKET", "SOCK_DGRAM"):\n' +
          '    try:\n' +
          '        socket.socketpair(socket.AF_UNIX, getattr(socket, kind))\n' +
          '        print(kind, "made")\n' +
          '    except OSError as error:\n' +
          '        print(kind, error.strerror)\n' +
          'try:\n' +
          '    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n' +
          '    print("socket made")\n' +
          'except OSError as error:\n' +
          '    print("socket", error.strerror)\n',
      });
      const result = await runCommand({}, { workspaceRoot: workspace, command: '/usr/bin/python3 pairs.py' });
      expect(result.output.trim().split('\n')).toEqual([
        'SOCK_STREAM made',
        'SOCK_SEQPACKET made',
        'SOCK_DGRAM Operation not permitted',
        'socket Operation not permitted',
      ]);
    },
  );
});

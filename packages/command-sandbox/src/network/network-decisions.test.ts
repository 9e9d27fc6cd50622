// The proxy's decisions as the relay asks for them, over a real Unix socket; addresses are values
// only (nothing connects to them).
import { connect } from 'node:net';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { RefusedHost } from './network-allowlist.js';
import { createDecisionServer, relayAddress } from './network-decisions.js';

describe('relayAddress', () => {
  it('gives the family and the bytes in hex', () => {
    expect(relayAddress('127.0.0.1')).toBe('4 7f000001');
    expect(relayAddress('93.184.215.14')).toBe('4 5db8d70e');
    expect(relayAddress('::1')).toBe('6 00000000000000000000000000000001');
    expect(relayAddress('2001:db8::8:800:200c:417a')).toBe('6 20010db80000000000080800200c417a');
    expect(relayAddress('::ffff:10.1.2.3')).toBe('6 00000000000000000000ffff0a010203');
    expect(relayAddress('fe80::1%eth0')).toBe('6 fe800000000000000000000000000001');
    expect(relayAddress('2001:db8:1:2:3:4:5:6')).toBe('6 20010db8000100020003000400050006');
  });
});

describe('createDecisionServer', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  async function ask(request: string, commands: Map<string, Map<string, RefusedHost>>): Promise<string> {
    const server = createDecisionServer(
      {
        domains: ['allowed.test'],
        allowance: { privateAddresses: ['127.0.0.1'] },
        resolveHost: async (host) => [{ address: host === 'allowed.test' ? '127.0.0.1' : '10.0.0.1', family: 4 }],
      },
      (token) => commands.get(token),
    );
    const path = join(testdir({}), 'decision.sock');
    await new Promise<void>((resolve) => server.listen(path, resolve));
    close = () => server.close();
    return new Promise((resolve, reject) => {
      let answer = '';
      connect(path)
        .on('data', (chunk) => (answer += chunk.toString()))
        .on('end', () => resolve(answer))
        .on('error', reject)
        .end(request);
    });
  }

  it('names the checked address of an allowed host', async () => {
    const commands = new Map([['a'.repeat(32), new Map<string, RefusedHost>()]]);
    const answer = await ask(
      `CONNECT allowed.test:8443 HTTP/1.1\r\nx-clawsmith-command: ${'a'.repeat(32)}\r\n\r\n`,
      commands,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 204 Decided\r\nx-clawsmith-address: 4 7f000001 8443\r\n/);
  });

  it('refuses another host and records it for that command only', async () => {
    const refused = new Map<string, RefusedHost>();
    const commands = new Map([
      ['a'.repeat(32), refused],
      ['b'.repeat(32), new Map<string, RefusedHost>()],
    ]);
    const answer = await ask(
      `CONNECT other.test:80 HTTP/1.1\r\nx-clawsmith-command: ${'a'.repeat(32)}\r\n\r\n`,
      commands,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*other\.test is not in the command's network allowlist/);
    expect([...refused.keys()]).toEqual(['other.test:80']);
    expect(commands.get('b'.repeat(32))!.size).toBe(0);
  });

  it('refuses a question for a command that has ended, whatever the host', async () => {
    const answer = await ask(
      `CONNECT allowed.test:443 HTTP/1.1\r\nx-clawsmith-command: ${'c'.repeat(32)}\r\n\r\n`,
      new Map(),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*The command this connection belongs to has ended/);
  });
});

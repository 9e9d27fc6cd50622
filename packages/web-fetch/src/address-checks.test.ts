import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './__fixtures__/local-server.js';
import { fetchReadable } from './fetch-readable.js';

// Every server here listens on 127.0.0.0/8; the refusals are checked to happen before any packet
// reaches the refused server (its request log stays empty).
let main: LocalServer;
let other: LocalServer;
let slow: LocalServer;
const allowMain = { allowance: { privateAddresses: ['127.0.0.1'] } };

beforeAll(async () => {
  other = await startLocalServer({ '/secret': (_request, response) => response.end('metadata secrets') }, '127.0.0.2');
  main = await startLocalServer({
    '/page': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('public page'),
    '/to-other': (_request, response) => response.writeHead(302, { location: `${other.origin}/secret` }).end(),
  });
  // Sends headers, then never the body: only the time limit ends the fetch.
  slow = await startLocalServer({
    '/slow': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first bytes');
    },
  });
});
afterAll(async () => {
  await Promise.all([main.close(), other.close(), slow.close()]);
});

describe('fetchReadable address checks', () => {
  it('refuses a redirect hop to a loopback address the caller did not allow, before connecting to it', async () => {
    const error = await fetchReadable(`${main.origin}/to-other`, { ...allowMain, crossHostRedirects: 'follow' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'address_refused', url: `${other.origin}/secret` });
    expect((error as Error).message).toContain('127.0.0.2 is a loopback address');
    expect(main.requested).toContain('/to-other');
    expect(other.requested).toEqual([]);
  });

  it('by default stops at a redirect to another host and names the target', async () => {
    const result = await fetchReadable(`${main.origin}/to-other`, allowMain);
    expect(result).toMatchObject({ kind: 'redirect', location: `${other.origin}/secret`, status: 302 });
    expect(other.requested).toEqual([]);
  });

  it('refuses a host name that resolves to 127.0.0.1 without the explicit allowance', async () => {
    const error = await fetchReadable(`http://localhost:${main.port}/page`).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'address_refused' });
    expect((error as Error).message).toMatch(/127\.0\.0\.1 \(localhost resolves to it\) is a loopback address|::1/);
    const byResolver = await fetchReadable(`http://intranet.test:${main.port}/page`, {
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
    }).catch((caught: unknown) => caught);
    expect(byResolver).toMatchObject({ code: 'address_refused' });
    expect((byResolver as Error).message).toContain('127.0.0.1 (intranet.test resolves to it) is a loopback address');
  });

  it('reaches that host name once it is allowed, connecting to the address it checked', async () => {
    const result = await fetchReadable(`http://intranet.test:${main.port}/page`, {
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
      allowance: { privateHosts: ['intranet.test'] },
    });
    expect(result).toMatchObject({ kind: 'page', text: 'public page', address: '127.0.0.1' });
  });

  it('refuses a host when one of its addresses is refused, even if another is allowed', async () => {
    const error = await fetchReadable(`http://mixed.test:${main.port}/page`, {
      resolveHost: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
      ...allowMain,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'address_refused' });
    expect((error as Error).message).toContain('169.254.169.254 (mixed.test resolves to it) is a metadata address');
  });

  it.each([
    ['digits', (port: number) => `http://2130706433:${port}/page`, '127.0.0.1'],
    ['hexadecimal', (port: number) => `http://0x7f.1:${port}/page`, '127.0.0.1'],
    ['IPv4-mapped IPv6', (port: number) => `http://[::ffff:127.0.0.1]:${port}/page`, '::ffff:7f00:1'],
  ])('refuses a loopback address spelled as %s', async (_spelling, url, shown) => {
    const error = await fetchReadable(url(main.port)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'address_refused' });
    expect((error as Error).message).toContain(`${shown} is a loopback address`);
  });

  it('times out a slow server', async () => {
    const error = await fetchReadable(`${slow.origin}/slow`, { ...allowMain, timeoutMs: 300 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'fetch_timeout', retryable: true });
  });

  it.each([
    'file:///etc/passwd',
    'data:text/plain,hello',
    'ftp://127.0.0.1/x',
    'not a url',
    'http://user:pw@127.0.0.1/',
  ])('refuses %s', async (url) => {
    await expect(fetchReadable(url, allowMain)).rejects.toMatchObject({ code: 'url_refused' });
  });
});

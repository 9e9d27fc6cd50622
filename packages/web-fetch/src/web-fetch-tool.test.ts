import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './__fixtures__/local-server.js';
import { createWebFetchTool } from './web-fetch-tool.js';
import { WebFetchError } from './web-fetch-errors.js';

const ARTICLE = `<!doctype html><html><head><title>Owls at night</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>How owls hunt</h1>
${'<p>Owls hunt at night with <a href="/feathers">silent feathers</a> and <em>sharp ears</em>; a barn owl finds a mouse under snow by sound alone.</p>'.repeat(6)}
<ul><li>silent flight</li><li>asymmetric ears</li></ul>
<pre><code>const owl = 'hoot';</code></pre></article>
<footer>Copyright footer text</footer><script>alert('never shown')</script></body></html>`;

let server: LocalServer;
const context = (signal: AbortSignal = AbortSignal.timeout(20_000)) => ({
  authorized: true,
  workspaceRoot: '/nonexistent',
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal,
});
// The test server is on 127.0.0.1: allowed for these tests only, explicitly.
const tool = createWebFetchTool({ allowance: { privateAddresses: ['127.0.0.1'] } });

beforeAll(async () => {
  server = await startLocalServer({
    '/article': (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/gzip': (_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end(gzipSync('unzipped text')),
    '/json': (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
    '/image': (_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
    '/moved': (_request, response) => response.writeHead(302, { location: '/article' }).end(),
    '/loop': (_request, response) => response.writeHead(302, { location: '/loop' }).end(),
    '/missing': (_request, response) => response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page'),
    '/latin1': (_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
  });
});
afterAll(() => server.close());

describe('createWebFetchTool', () => {
  it('turns an article page into Markdown with absolute links, without navigation or scripts', async () => {
    const result = await tool.execute({ url: `${server.origin}/article` }, context());
    expect(result.status).toBe('success');
    expect(result.content).toContain(`URL: ${server.origin}/article`);
    expect(result.content).toContain('Title: Owls at night');
    expect(result.content).toContain(`[silent feathers](${server.origin}/feathers)`);
    expect(result.content).toContain('_sharp ears_');
    expect(result.content).toMatch(/^-\s+silent flight$/m);
    expect(result.content).toContain("```\nconst owl = 'hoot';\n```");
    expect(result.content).not.toContain('alert(');
    expect(result.content).not.toContain('Copyright footer');
    expect(result.content).not.toContain('<p>');
  });

  it('returns other text types as text, decompressed and decoded by their charset', async () => {
    expect((await tool.execute({ url: `${server.origin}/json` }, context())).content).toMatch(
      /Content-Type: application\/json\n\n\{"a":1\}$/,
    );
    expect((await tool.execute({ url: `${server.origin}/gzip` }, context())).content).toMatch(/\n\nunzipped text$/);
    expect((await tool.execute({ url: `${server.origin}/latin1` }, context())).content).toMatch(/\n\ncafé$/);
  });

  it('refuses binary content before reading it', async () => {
    const error = await tool.execute({ url: `${server.origin}/image` }, context()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebFetchError);
    expect(error).toMatchObject({ code: 'binary_content' });
    expect((error as Error).message).toContain('image/png');
  });

  it('follows a redirect on the same host and names it', async () => {
    const result = await tool.execute({ url: `${server.origin}/moved` }, context());
    expect(result.content).toContain(`URL: ${server.origin}/article\nRedirected from: ${server.origin}/moved`);
  });

  it('stops after the redirect limit', async () => {
    const limited = createWebFetchTool({ allowance: { privateAddresses: ['127.0.0.1'] }, maxRedirects: 3 });
    await expect(limited.execute({ url: `${server.origin}/loop` }, context())).rejects.toMatchObject({
      code: 'too_many_redirects',
    });
  });

  it('reports an HTTP error status as an error result with the page', async () => {
    const result = await tool.execute({ url: `${server.origin}/missing` }, context());
    expect(result).toMatchObject({ status: 'error', code: 'http_error' });
    expect(result.content).toContain('no such page');
  });

  it('cuts a body at the byte limit and says so', async () => {
    const small = createWebFetchTool({ allowance: { privateAddresses: ['127.0.0.1'] }, maxBodyBytes: 20 });
    const result = await small.execute({ url: `${server.origin}/article` }, context());
    expect(result.content).toContain('Note: the body was cut after 20 bytes');
  });

  it('refuses to run unauthorised', async () => {
    await expect(
      tool.execute({ url: `${server.origin}/json` }, { ...context(), authorized: false }),
    ).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });
});

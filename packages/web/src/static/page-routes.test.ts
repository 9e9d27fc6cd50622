import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../__fixtures__/web-harness.js';

function builtPage() {
  const folder = createTestdir({
    'index.html': '<!doctype html><script type="module" src="/assets/index-abc.js"></script>',
    'assets/index-abc.js': 'console.log("page");\n',
    'assets/index-abc.css': 'body { color: black; }\n',
    'assets/notes.txt': 'not a page file type\n',
    'secret.txt': 'outside assets\n',
  });
  onTestFinished(() => folder.remove());
  return folder.path;
}

describe('page routes', () => {
  it('serves the built page and its assets with their types and the security headers, signed out', async () => {
    const web = await createWebHarness({ pageDirectory: builtPage() });
    const index = await web.raw('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('/assets/index-abc.js');
    const script = await web.raw('/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await script.text()).toBe('console.log("page");\n');
    expect((await web.raw('/assets/index-abc.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('lets browsers keep content-hashed assets, and nothing else (the shell, unhashed files, API answers)', async () => {
    const folder = createTestdir({
      'index.html': '<!doctype html><script type="module" src="/assets/index-VQ10vJQx.js"></script>',
      'assets/index-VQ10vJQx.js': 'console.log("page");\n',
      'assets/index-DJdXtRlO.css': 'body { color: black; }\n',
      'assets/index-abc.js': 'console.log("unhashed");\n',
    });
    onTestFinished(() => folder.remove());
    const web = await createWebHarness({ pageDirectory: folder.path });
    for (const path of ['/assets/index-VQ10vJQx.js', '/assets/index-DJdXtRlO.css']) {
      const asset = await web.raw(path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('cache-control'), path).toBe('private, max-age=31536000, immutable');
      expect(asset.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(asset.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    for (const path of ['/', '/assets/index-abc.js', '/assets/index-Missing1.js'])
      expect((await web.raw(path)).headers.get('cache-control'), path).toBe('no-store');
    expect((await web.api('/api/sessions')).headers.get('cache-control')).toBe('no-store');
  });

  it('serves nothing outside the files read at start: other types, other folders, traversal', async () => {
    const web = await createWebHarness({ pageDirectory: builtPage() });
    for (const path of ['/assets/notes.txt', '/assets/..%2Fsecret.txt', '/assets/%2e%2e%2fsecret.txt', '/secret.txt']) {
      const response = await web.raw(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'route_not_found' } });
    }
  });

  it('says how to build the page when it is not built, and runs no script', async () => {
    const empty = createTestdir({});
    onTestFinished(() => empty.remove());
    const web = await createWebHarness({ pageDirectory: empty.path });
    const index = await web.raw('/');
    expect(index.status).toBe(200);
    const html = await index.text();
    expect(html).toContain('npx nx run @clawsmith/web:build');
    expect(html).not.toContain('<script');
  });
});

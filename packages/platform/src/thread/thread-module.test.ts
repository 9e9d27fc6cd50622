import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { threadModuleUrl } from './thread-module.js';

function firstMessage(url: URL): Promise<unknown> {
  const worker = new Worker(url);
  return new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

describe('threadModuleUrl', () => {
  it('names the compiled sibling when the caller is compiled JavaScript', () => {
    expect(threadModuleUrl('regex-thread', 'file:///opt/app/dist/regex-worker.js').href).toBe(
      'file:///opt/app/dist/regex-thread.js',
    );
  });

  it('bundles a TypeScript thread module and what it imports into a private folder a worker can start from', async () => {
    const dir = testdir();
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(dir, 'twice.ts'), 'export const twice = (value: number): number => value * 2;\n');
    writeFileSync(
      join(dir, 'answer-thread.ts'),
      "import { parentPort } from 'node:worker_threads';\nimport { twice } from './twice.js';\nconst half: number = 21;\nparentPort!.postMessage(twice(half));\n",
    );
    const url = threadModuleUrl('answer-thread', pathToFileURL(join(dir, 'caller.ts')).href);

    expect(url.href.endsWith('/answer-thread.mjs')).toBe(true);
    expect(dirname(fileURLToPath(url))).not.toBe(dir);
    expect(statSync(dirname(fileURLToPath(url))).mode & 0o777).toBe(0o700);
    expect(await firstMessage(url)).toBe(42);
    // Bundled once per process.
    expect(threadModuleUrl('answer-thread', pathToFileURL(join(dir, 'other-caller.ts')).href)).toBe(url);
  });

  it('fails with the bundler’s message when the thread module does not exist', () => {
    const dir = testdir();
    expect(() => threadModuleUrl('missing-thread', pathToFileURL(join(dir, 'caller.ts')).href)).toThrow(
      /missing-thread\.ts/,
    );
  });
});

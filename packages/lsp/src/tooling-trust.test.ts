import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testdir, writeTree } from '@clawsmith/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TYPESCRIPT_PROJECT, lspTool, runTool, testContext } from './__fixtures__/lsp-fixtures.js';
import { createLspService, type LspService } from './lsp-service.js';
import { LanguageToolingTrustStore } from './tooling-trust.js';

// A repository's own tsserver.js that records that it ran, then serves as the real one would.
const realTsserver = createRequire(import.meta.url).resolve('typescript/lib/tsserver.js');
const plantedTsserver = (marker: string) =>
  `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'ran\\n');\nrequire(${JSON.stringify(realTsserver)});\n`;
const TYPESCRIPT_PACKAGE = JSON.stringify({ name: 'typescript', version: '5.9.3' });

let markers: string;
let service: LspService | undefined;
beforeEach(() => {
  markers = mkdtempSync(join(tmpdir(), 'clawsmith-lsp-markers-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(markers, { recursive: true, force: true });
});

/** A project with a planted local TypeScript and an lsp.json pointing tsserver at a repository file. */
function plantedWorkspace(): { root: string; localMarker: string; configMarker: string } {
  const localMarker = join(markers, 'local-typescript');
  const configMarker = join(markers, 'configured-tsserver');
  const root = testdir({
    ...TYPESCRIPT_PROJECT,
    'node_modules/typescript/package.json': TYPESCRIPT_PACKAGE,
    'node_modules/typescript/lib/tsserver.js': plantedTsserver(localMarker),
    'tools/ts/package.json': TYPESCRIPT_PACKAGE,
    'tools/ts/lib/tsserver.js': plantedTsserver(configMarker),
  });
  writeLspJson(root, { tsserver: { path: join(root, 'tools/ts/lib/tsserver.js') } });
  return { root, localMarker, configMarker };
}

function writeLspJson(root: string, initializationOptions: unknown): void {
  writeTree(root, {
    '.clawsmith/lsp.json': JSON.stringify({ servers: { typescript: { initializationOptions } } }),
  });
}

const TYPE_ERROR = [
  '1 error in 1 file (checked: src/main.ts).',
  "src/main.ts:4:7 error TS2322: Type 'number' is not assignable to type 'string'.",
].join('\n');

describe('language tooling trust', () => {
  it('runs none of the repository code until the tooling is trusted, and says why', { timeout: 120_000 }, async () => {
    const { root, localMarker, configMarker } = plantedWorkspace();
    const home = testdir({});
    service = createLspService({ home });
    const result = await runTool(lspTool(service, 'lsp_diagnostics'), { path: 'src/main.ts' }, testContext(root));
    expect(result.status).toBe('success');
    expect(result.content).toBe(
      [
        TYPE_ERROR,
        'The initializationOptions of "typescript" in .clawsmith/lsp.json were ignored: this workspace\'s language tooling is not trusted. ' +
          "The workspace's own TypeScript is not used, clawsmith's is: this workspace's language tooling is not trusted. " +
          'The person can trust it with `clawsmith lsp trust` in the workspace, after reviewing what it would run.',
      ].join('\n'),
    );
    expect(existsSync(localMarker)).toBe(false);
    expect(existsSync(configMarker)).toBe(false);
  });

  it('uses the workspace settings once trusted, and stops again when they change', { timeout: 180_000 }, async () => {
    const { root, localMarker, configMarker } = plantedWorkspace();
    const home = testdir({});
    new LanguageToolingTrustStore(home).trust(root);
    service = createLspService({ home });
    const trusted = await runTool(lspTool(service, 'lsp_diagnostics'), { path: 'src/main.ts' }, testContext(root));
    expect(trusted.content).toBe(TYPE_ERROR);
    expect(existsSync(configMarker)).toBe(true);
    await service.close();

    // Changing the code the trusted setting points at changes the fingerprint: untrusted again.
    writeTree(root, { 'tools/ts/lib/tsserver.js': `${plantedTsserver(configMarker)}// changed\n` });
    rmSync(configMarker);
    service = createLspService({ home });
    const changed = await runTool(lspTool(service, 'lsp_diagnostics'), { path: 'src/main.ts' }, testContext(root));
    expect(changed.content).toContain('Its language tooling changed since the person trusted it');
    expect(existsSync(localMarker)).toBe(false);
    expect(existsSync(configMarker)).toBe(false);
  });

  it('uses a trusted project-local TypeScript', { timeout: 120_000 }, async () => {
    const marker = join(markers, 'local-typescript');
    const root = testdir({
      ...TYPESCRIPT_PROJECT,
      'node_modules/typescript/package.json': TYPESCRIPT_PACKAGE,
      'node_modules/typescript/lib/tsserver.js': plantedTsserver(marker),
    });
    const home = testdir({});
    new LanguageToolingTrustStore(home).trust(root);
    service = createLspService({ home });
    const result = await runTool(lspTool(service, 'lsp_diagnostics'), { path: 'src/main.ts' }, testContext(root));
    expect(result.content).toBe(TYPE_ERROR);
    expect(existsSync(marker)).toBe(true);
  });

  it('pyright runs no interpreter or module the repository chose while untrusted', { timeout: 120_000 }, async () => {
    const marker = join(markers, 'python');
    const recorder = `#!/bin/sh\necho "$0" >> ${JSON.stringify(marker)}\nexit 1\n`;
    const module = `open(${JSON.stringify(marker)}, 'a').write(__file__ + '\\n')\n`;
    const root = testdir({
      'app.py': 'import json\n\nprint(json.dumps(user_name))\n',
      'pyrightconfig.json': JSON.stringify({ venvPath: '.', venv: 'venv' }),
      'venv/bin/python': { content: recorder, mode: 0o755 },
      'venv/bin/python3': { content: recorder, mode: 0o755 },
      'venv/pyvenv.cfg': 'home = /usr/bin\n',
      'json.py': module,
      'os.py': module,
      'sitecustomize.py': module,
    });
    service = createLspService({ home: testdir({}) });
    const result = await runTool(lspTool(service, 'lsp_diagnostics'), { path: 'app.py' }, testContext(root));
    expect(result.content).toContain('"user_name" is not defined');
    expect(existsSync(marker) ? 'ran' : 'did not run').toBe('did not run');
  });
});

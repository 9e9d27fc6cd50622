import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { lspTool, runTool, testContext } from './__fixtures__/lsp-fixtures.js';
import { builtinServers } from './builtin-servers.js';
import { createLspService, type LspService } from './lsp-service.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('diagnostics from publishDiagnostics (servers without pull)', () => {
  it('waits for the publish after a change (pyright without pull)', { timeout: 180_000 }, async () => {
    const root = testdir({ 'app.py': 'print(user_name)\n', 'pyrightconfig.json': '{}' });
    const publishing = builtinServers().map((spec) => ({ ...spec, diagnostics: 'publish' as const }));
    service = createLspService({ servers: publishing, limits: { diagnosticsWaitMs: 90_000 } });
    const diagnostics = lspTool(service, 'lsp_diagnostics');
    const broken = await runTool(diagnostics, { path: 'app.py' }, testContext(root));
    expect(broken.content).toBe(
      [
        '1 error in 1 file (checked: app.py).',
        'app.py:1:7 error reportUndefinedVariable (Pyright): "user_name" is not defined',
      ].join('\n'),
    );
    writeFileSync(join(root, 'app.py'), 'user_name = "x"\nprint(user_name)\n');
    const fixed = await runTool(diagnostics, { path: 'app.py' }, testContext(root));
    expect(fixed.content).toBe('No diagnostics in app.py.');
  });
});

import { testdir } from '@clawsmith/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { lspTool, runTool, testContext } from './__fixtures__/lsp-fixtures.js';
import { createLspService, type LspService } from './lsp-service.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('lsp tools on pyright', () => {
  it('reports an undefined name with its position', { timeout: 120_000 }, async () => {
    const root = testdir({
      'app.py': 'def greet(name: str) -> str:\n    return "hello " + name\n\nprint(greet(user_name))\n',
      'pyrightconfig.json': '{}',
    });
    service = createLspService();
    const result = await runTool(lspTool(service, 'lsp_diagnostics'), { path: 'app.py' }, testContext(root));
    expect(result.content).toBe(
      [
        '1 error in 1 file (checked: app.py).',
        'app.py:4:13 error reportUndefinedVariable (Pyright): "user_name" is not defined',
      ].join('\n'),
    );
    const definition = await runTool(
      lspTool(service, 'lsp_definition'),
      { path: 'app.py', line: 4, column: 7 },
      testContext(root),
    );
    expect(definition.content).toBe(
      ['Definition of app.py:4:7 (greet):', 'app.py:1:5  def greet(name: str) -> str:'].join('\n'),
    );
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeReadmeExample, testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { loadMcpConfiguration } from './client/mcp-configuration.js';
import { resolveRemoteEndpoint } from './client/oauth/remote-endpoint.js';
import type { HttpServerEntry } from './client/server-entry.js';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/call-an-mcp-tool.ts',
  prints: [
    'mcp__everything__echo execute true',
    'valid without message: false',
    'success Echo: hello',
    'refused: unauthorized',
  ],
});

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/sign-in-to-a-remote-server.ts',
  prints: [
    'signed in: true refreshable: true',
    'token file mode: 600',
    'success',
    'error mcp_auth_required',
    'Run: clawsmith mcp login tracker',
    'records removed: 1',
  ],
});

describe('the README remote configuration', () => {
  it('loads without problems, and each entry authenticates as the README says', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const marker = '<!-- remote-configuration (checked by the tests) -->';
    const block = /^```json\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf(marker)))?.[1] ?? '';
    const home = testdir({ 'mcp.json': block });
    const configuration = loadMcpConfiguration({ homeDir: home });
    expect(configuration.problems).toEqual([]);
    const modes = configuration.servers.map((server) => {
      const endpoint = resolveRemoteEndpoint(server.name, server.entry as HttpServerEntry, { ERRORS_TOKEN: 'e' });
      return [server.name, endpoint.authMode, endpoint.oauth];
    });
    expect(modes).toEqual([
      ['tracker', 'oauth', {}],
      ['docs', 'oauth', { clientId: 'clawsmith-at-example', scope: 'docs:read' }],
      ['errors', 'headers', {}],
    ]);
  });
});

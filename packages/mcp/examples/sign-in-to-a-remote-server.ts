import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { openMcpTools, signInToMcpServer, signOutOfMcpServer } from '@clawsmith/mcp';
// A local MCP server that requires OAuth (the SDK's server and auth router), standing in for a
// remote one; this repository's tests use it too.
import { startOAuthMcpServer } from '@clawsmith/test-utils/oauth-mcp-server';

const server = await startOAuthMcpServer();
const homeDir = mkdtempSync(join(tmpdir(), 'clawsmith-remote-example-'));
try {
  // A remote server is an entry with a url; without an Authorization header it signs in with OAuth.
  writeFileSync(join(homeDir, 'mcp.json'), JSON.stringify({ mcpServers: { tracker: { url: server.url } } }));

  // `clawsmith mcp login tracker` runs this; the CLI opens a browser (or prints the URL).
  // Here a scripted browser follows the authorization server's redirects back to 127.0.0.1.
  const signedIn = await signInToMcpServer({
    homeDir,
    name: 'tracker',
    openAuthorizationUrl: (url) => void fetch(url, { redirect: 'follow' }).then((page) => page.text()),
  });
  console.log('signed in:', signedIn.status.signedIn, 'refreshable:', signedIn.status.refreshable);
  const credentials = join(homeDir, 'mcp', 'credentials');
  const [file] = readdirSync(credentials);
  console.log('token file mode:', (statSync(join(credentials, file ?? '')).mode & 0o777).toString(8)); // 600

  const mcp = await openMcpTools({ homeDir });
  try {
    const whoami = mcp.tools.find((tool) => tool.name === 'mcp__tracker__whoami');
    if (!whoami) throw new Error('the server offers no whoami tool');
    const context: ToolExecutionContext = {
      authorized: true, // core's permission policy decides this for an agent
      workspaceRoot: homeDir,
      sessionId: 's',
      turnId: 't',
      toolCallId: 'c',
      signal: new AbortController().signal,
    };
    console.log((await whoami.execute({}, context)).status); // success
    server.revokeAll(); // the person revoked clawsmith's access at the provider
    const refused = await whoami.execute({}, context);
    console.log(refused.status, refused.code); // error mcp_auth_required
    console.log(refused.content); // … Run: clawsmith mcp login tracker
  } finally {
    await mcp.close();
  }
  console.log('records removed:', signOutOfMcpServer({ homeDir, name: 'tracker' })); // `clawsmith mcp logout tracker`
} finally {
  await server.close();
  rmSync(homeDir, { recursive: true, force: true });
}

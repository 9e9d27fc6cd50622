import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ClawsmithError, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { openMcpTools } from '@clawsmith/mcp';

// The reference MCP server, run over stdio: npm install -E @modelcontextprotocol/server-everything@2026.8.31
const serverPackage = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json');
const everything = join(dirname(serverPackage), 'dist/index.js');

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-mcp-example-'));
const homeDir = join(scratch, 'home'); // <home>/mcp.json is the person's own file: its servers are trusted
const workspaceRoot = join(scratch, 'project');
mkdirSync(homeDir);
mkdirSync(workspaceRoot);
const entry = { command: process.execPath, args: [everything, 'stdio'] };
writeFileSync(join(homeDir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: entry } }));

// Lists the server's tools once and stores the list; a later session starts the server at its first call.
const mcp = await openMcpTools({ homeDir, workspaceRoot });
try {
  const [server] = mcp.servers();
  console.log(server?.name, server?.availability, `${server?.toolCount} tools`); // everything offered 13 tools
  const echo = mcp.tools.find((tool) => tool.name === 'mcp__everything__echo');
  if (!echo) throw new Error('the everything server offers no echo tool');
  console.log(echo.name, echo.risk, echo.deferred); // mcp__everything__echo execute true

  const context: ToolExecutionContext = {
    authorized: true, // you decided this call may run: core's permission policy does this for an agent
    workspaceRoot,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
    signal: new AbortController().signal,
  };
  // execute trusts its input: validate against the server's schema first (core answers invalid_arguments).
  console.log('valid without message:', echo.inputSchema.safeParse({}).success); // false
  const result = await echo.execute(echo.inputSchema.parse({ message: 'hello' }), context);
  console.log(result.status, result.content); // success Echo: hello
  // A refusal is thrown as a ClawsmithError with a stable code; core turns it into a result for the model.
  await echo.execute({ message: 'hello' }, { ...context, authorized: false }).catch((error: unknown) => {
    if (!ClawsmithError.isInstance(error)) throw error;
    console.log('refused:', error.code); // refused: unauthorized
  });
} finally {
  await mcp.close(); // ends every server this session started
  rmSync(scratch, { recursive: true, force: true });
}

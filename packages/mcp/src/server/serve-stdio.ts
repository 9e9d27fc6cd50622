import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MAX_STDIO_MESSAGE_BYTES } from '../client/server-connection.js';
import { createServedMcpServer, type ServedMcpServerOptions } from './served-mcp-server.js';

/**
 * Serves one MCP connection over this process's stdin and stdout (how MCP clients launch
 * servers) and resolves once it is over: the client closed stdin, or `stop` was aborted (a
 * signal). Calls still running are cancelled first and the session is closed.
 */
export async function serveMcpOverStdio(
  options: ServedMcpServerOptions & {
    readonly stdin?: NodeJS.ReadableStream;
    readonly stdout?: NodeJS.WritableStream;
    readonly stop?: AbortSignal;
  },
): Promise<{ sessionId: string | undefined }> {
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WriteStream;
  const connection = createServedMcpServer(options);
  const transport = new StdioServerTransport(stdin, stdout, { maxBufferSize: MAX_STDIO_MESSAGE_BYTES });
  // A client that went away makes writes fail; the end of stdin closes the connection.
  stdout.on('error', () => void transport.close());
  const end = () => void transport.close();
  stdin.once('end', end);
  stdin.once('close', end);
  options.stop?.addEventListener('abort', end, { once: true });
  await connection.server.connect(transport);
  await connection.closed;
  stdin.off('end', end);
  stdin.off('close', end);
  options.stop?.removeEventListener('abort', end);
  return { sessionId: connection.sessionId() };
}

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArtifactReference, ArtifactWriter } from '@clawsmith/tool-protocol';

const require = createRequire(import.meta.url);

/** The official reference servers from npm and our fixture, as stdio entries. */
export const servers = {
  everything: join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js'),
  filesystem: join(dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist/index.js'),
  fixture: fileURLToPath(new URL('./fixture-server.mjs', import.meta.url)),
};

/** Writes `{ mcpServers }` to `file`, creating its folder. */
export function writeMcpConfig(file: string, mcpServers: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** An artifact writer on a real folder: the port core wires to the artifact store. */
export function folderArtifacts(folder: string): ArtifactWriter & { stored(): string[] } {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  return {
    async write(content, options) {
      count += 1;
      const id = `artifact-${count}`;
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      writeFileSync(join(folder, id), bytes);
      const reference: ArtifactReference = {
        id,
        mediaType: options?.mediaType ?? 'text/plain; charset=utf-8',
        byteLength: bytes.byteLength,
        lineCount: 0,
      };
      return reference;
    },
    async openAppendable() {
      throw new Error('not used by the MCP client');
    },
    stored: () => readdirSync(folder).sort(),
  };
}

/** The pids a fixture server appended to its start marker, or none when it never started. */
export function startedPids(marker: string): number[] {
  try {
    return readFileSync(marker, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

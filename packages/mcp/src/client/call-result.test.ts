import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { folderArtifacts } from './__fixtures__/mcp-servers.js';
import { mapCallResult } from './call-result.js';

const names = { serverName: 'srv', toolName: 'tool' };

describe('mapCallResult', () => {
  it('joins text, stores audio and embedded resources as artifacts, and lists resource links', async () => {
    const artifacts = folderArtifacts(join(testdir(), 'artifacts'));
    const result = await mapCallResult(
      {
        content: [
          { type: 'text', text: 'first' },
          { type: 'audio', data: Buffer.from('RIFF....WAVE').toString('base64'), mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } },
          { type: 'resource', resource: { uri: 'file:///a.bin', blob: Buffer.from([1, 2, 3]).toString('base64') } },
          { type: 'resource_link', uri: 'file:///other.txt', name: 'other' },
          { type: 'text', text: 'last' },
        ],
      },
      { ...names, artifacts },
    );
    expect(result).toEqual({
      version: 1,
      status: 'success',
      content: [
        'first',
        '[audio audio/wav, 12 bytes: stored as artifact artifact-1]',
        '[resource file:///notes.md (text/markdown), 7 bytes: stored as artifact artifact-2]\n# Notes',
        '[resource file:///a.bin (application/octet-stream), 3 bytes: stored as artifact artifact-3]',
        '[resource link other: file:///other.txt]',
        'last',
      ].join('\n'),
    });
    expect(artifacts.stored()).toEqual(['artifact-1', 'artifact-2', 'artifact-3']);
  });

  it('maps isError to mcp_tool_error and says when there is no artifact store', async () => {
    expect(
      await mapCallResult(
        {
          isError: true,
          content: [
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
            { type: 'text', text: 'bad input' },
          ],
        },
        names,
      ),
    ).toEqual({
      version: 1,
      status: 'error',
      code: 'mcp_tool_error',
      retryable: false,
      content:
        'The MCP server srv reported an error from tool:\n[image image/png, 3 bytes: not kept, this session has no artifact store]\nbad input',
    });
  });

  it('shows structured content as a json display and as the content when there is no text', async () => {
    expect(await mapCallResult({ content: [], structuredContent: { a: 1 } }, names)).toEqual({
      version: 1,
      status: 'success',
      content: '{"a":1}',
      display: { kind: 'json', title: 'srv · tool', body: '{\n  "a": 1\n}' },
    });
    expect(await mapCallResult({ content: [] }, names)).toMatchObject({ content: '(the tool returned no content)' });
  });
});

import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';

function pathOf(uri: string): string {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
}

/**
 * The prompt text of an ACP prompt: text blocks as written, a file link as `@path` (the model
 * reads it with its tools), an embedded text resource (an editor selection or unsaved buffer) as
 * a fenced block named by its path. Images and audio are not advertised, so none arrive.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'resource_link':
          return `@${pathOf(block.uri)}`;
        case 'resource':
          return 'text' in block.resource
            ? `\n<context path="${pathOf(block.resource.uri)}">\n${block.resource.text}\n</context>\n`
            : `@${pathOf(block.resource.uri)}`;
        default:
          return '';
      }
    })
    .join(' ')
    .trim();
}

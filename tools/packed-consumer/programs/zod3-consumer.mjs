// A project still on zod 3 defines a tool: it must get clawsmith's clear error, not a crash
// inside schema conversion. Prints the error's code and message.
import { defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod3';

try {
  defineTool({
    name: 'legacy_tool',
    description: 'Written against zod 3.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    inputSchema: z.object({ path: z.string() }),
    summarize: (input) => input.path,
    execute: async () => 'ok',
  });
  console.log('accepted');
} catch (error) {
  console.log(`${error.code}: ${error.message}`);
}

// Test fixture: a plugin folder whose tool module appends to a marker file when imported, so a
// test can prove that no code of an untrusted plugin ran. Not part of the build.
import type { TestTree } from '@clawsmith/test-utils';

/** A plugin `name` with the tools `<toolPrefix>_greet` (answers a greeting) and `<toolPrefix>_fail` (throws). */
export function pluginTree(name: string, marker: string, toolPrefix = name): TestTree {
  return {
    'clawsmith-plugin.json': JSON.stringify({ name, tools: ['./tools.mjs'] }),
    'tools.mjs': `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(marker)}, 'imported\\n');
export const tools = [
  { name: '${toolPrefix}_greet', description: 'Greets someone by name.', risk: 'read', capabilities: [],
    concurrencySafe: true, inputJsonSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    async execute(input) { return 'Hello, ' + input.who + ', from ${name}!'; } },
  { name: '${toolPrefix}_fail', description: 'A tool that always throws an error.', risk: 'read', capabilities: [],
    concurrencySafe: false, inputJsonSchema: { type: 'object' },
    async execute() { throw new Error('the plugin tool broke'); } },
];
`,
  };
}

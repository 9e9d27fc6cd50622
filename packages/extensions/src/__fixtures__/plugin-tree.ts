import type { TestTree } from '@clawsmith/test-utils';

/**
 * A plugin folder whose tool module writes `marker` (an absolute path outside the folder) the
 * moment it is imported: a test proves "no code ran" by the marker's absence.
 */
export function pluginTree(
  name: string,
  marker: string,
  options: { extra?: TestTree; module?: string } = {},
): TestTree {
  return {
    'clawsmith-plugin.json': JSON.stringify({ name, tools: ['./tools.mjs'] }),
    'tools.mjs':
      options.module ??
      `import { appendFileSync } from 'node:fs';
import { greeting } from './helper.mjs';
appendFileSync(${JSON.stringify(marker)}, 'imported\\n');
export const tools = [
  {
    name: '${name.replace(/[^a-z0-9]/g, '_')}_greet',
    description: 'Greets someone by name.',
    risk: 'read',
    capabilities: [],
    concurrencySafe: true,
    inputJsonSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    summarize: (input) => 'greet ' + input.who,
    async execute(input) { return greeting(input.who); },
  },
  {
    name: '${name.replace(/[^a-z0-9]/g, '_')}_fail',
    description: 'Always throws.',
    risk: 'read',
    capabilities: [],
    concurrencySafe: false,
    inputJsonSchema: { type: 'object', properties: {} },
    async execute() { throw new Error('the plugin tool broke'); },
  },
];
`,
    'helper.mjs': "export function greeting(who) { return 'Hello, ' + who + '!'; }\n",
    ...options.extra,
  };
}

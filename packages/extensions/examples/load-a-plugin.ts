import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeToolResult, resolveToolSecurity, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { loadPlugins, trustPlugin } from '@clawsmith/extensions';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-plugins-example-'));
const homeDir = join(scratch, 'home'); // trust lives in <home>/plugins.json, never in a workspace
const plugin = join(scratch, 'acme-tools'); // a plugin: a manifest and tool modules
mkdirSync(homeDir);
mkdirSync(plugin);
writeFileSync(join(plugin, 'clawsmith-plugin.json'), JSON.stringify({ name: 'acme-tools', tools: ['./tools.mjs'] }));
writeFileSync(
  join(plugin, 'tools.mjs'),
  `export const tools = [{
  name: 'acme_greet',
  description: 'Greet someone by name.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: true,
  inputJsonSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  execute: async (input) => 'Hello, ' + input.name + '!',
}];
`,
);
try {
  trustPlugin({ homeDir, target: plugin }); // what `clawsmith plugins trust` does: hashes the files, runs none
  const { sources } = await loadPlugins({ homeDir, onNotice: console.log });
  const [source] = sources;
  const greet = source?.tools[0];
  if (!greet) throw new Error('the trusted plugin did not load');
  console.log(source.source.split(' ')[0], greet.name, resolveToolSecurity(greet).risk); // plugin:acme-tools acme_greet read
  const context: ToolExecutionContext = {
    authorized: true, // you decided on its effective risk: core's permission policy does this for an agent
    workspaceRoot: scratch,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
    signal: new AbortController().signal,
  };
  // A plugin's execute returns whatever its author wrote: normalizeToolResult makes it a result, as core does.
  const result = normalizeToolResult(await greet.execute(greet.inputSchema.parse({ name: 'Ada' }), context));
  console.log(result.status, result.content); // success Hello, Ada!

  appendFileSync(join(plugin, 'tools.mjs'), '// changed after it was trusted\n');
  const again = await loadPlugins({ homeDir }); // none of the changed plugin's code runs
  console.log(again.sources.length, again.plugins[0]?.state, again.plugins[0]?.problem?.code); // 0 changed plugin_changed
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

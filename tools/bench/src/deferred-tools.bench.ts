// Benchmarks search_tools over 10,000 deferred tools named and described after the corpus's real
// exported functions and AWS SDK operations, beside a naive lowercase-and-includes linear scan.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defineTool, type AnyToolDefinition, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import {
  SessionActivation,
  composeRequestTools,
  createDeferredToolCatalog,
  createSearchToolsTool,
} from '@clawsmith/deferred-tools';
import { z } from 'zod';
import { corpusDir } from './corpus.js';
import { measure, report } from './measure.js';

const TOOL_COUNT = 10_000;
const DECLARATION =
  /(?:\/\*\*((?:[^*]|\*(?!\/))*)\*\/\s*)?(?:export (?:declare )?function ([A-Za-z_$][\w$]*)|^ {2}([a-z][A-Za-z0-9]*)\(params)/gm;

interface Declared {
  readonly server: string;
  readonly operation: string;
  readonly description: string;
}

function declarationFiles(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) declarationFiles(path, found);
    else if (entry.name.endsWith('.d.ts') && statSync(path).size < 8_000_000) found.push(path);
  }
  return found;
}

function serverOf(source: string, path: string): string {
  const parts = relative(source, path).split('/');
  const packageName = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  const client = packageName === 'aws-sdk' && parts.includes('clients') ? `_${parts.at(-1)!.replace('.d.ts', '')}` : '';
  return `${packageName}${client}`
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();
}

function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

function toolName(server: string, operation: string): string {
  return `mcp__${server}__${snakeCase(operation)}`.slice(0, 256);
}

function cleanDoc(doc: string | undefined, fallback: string): string {
  if (!doc) return fallback;
  const text = doc
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .filter((line) => !line.startsWith('@'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 0 ? text : fallback;
}

/**
 * Every exported function of the corpus, then AWS SDK operations taken at an even stride so that
 * every client (S3, EC2, Lambda...) is represented; deterministic.
 */
function realToolList(): Declared[] {
  const source = join(corpusDir(), 'src');
  const functions: Declared[] = [];
  const operations: Declared[] = [];
  const seen = new Set<string>();
  for (const path of declarationFiles(source).sort()) {
    const server = serverOf(source, path);
    for (const match of readFileSync(path, 'utf8').matchAll(DECLARATION)) {
      const operation = match[2] ?? match[3]!;
      const key = toolName(server, operation);
      if (seen.has(key)) continue;
      seen.add(key);
      const declared = { server, operation, description: cleanDoc(match[1], `${operation} from ${server}.`) };
      (match[2] ? functions : operations).push(declared);
    }
  }
  const room = TOOL_COUNT - functions.length;
  const stride = operations.length / room;
  const sampled = Array.from(
    { length: Math.min(room, operations.length) },
    (_, index) => operations[Math.floor(index * stride)]!,
  );
  console.log(
    `${functions.length} exported functions and ${sampled.length} of ${operations.length} AWS SDK operations`,
  );
  return [...functions, ...sampled].slice(0, TOOL_COUNT);
}

const declared = realToolList();
if (declared.length < TOOL_COUNT)
  throw new Error(`The corpus gave only ${declared.length} declarations; expected ${TOOL_COUNT}.`);
const inputSchema = z.object({ params: z.record(z.string(), z.unknown()).optional() });
const tools: AnyToolDefinition[] = declared.map(({ server, operation, description }) =>
  defineTool({
    name: toolName(server, operation),
    description,
    risk: 'execute',
    capabilities: ['network'],
    concurrencySafe: false,
    inputSchema,
    summarize: () => operation,
    execute: async () => operation,
    deferred: true,
    searchMetadata: { tags: [server] },
  }),
);
const descriptionCharacters = tools.reduce((sum, tool) => sum + tool.description.length, 0);
console.log(
  `${tools.length} deferred tools from ${new Set(declared.map((item) => item.server)).size} servers; descriptions ${(descriptionCharacters / 1e6).toFixed(1)} M characters in all`,
);

const queries = [
  'create s3 bucket',
  'list objects in a bucket',
  'format a date as ISO string',
  'parse json schema validation',
  'delete user from group',
  'send email notification',
  'upload file multipart',
  'describe ec2 instances',
  'resolve module path',
  'stop running task',
  'terminal color styles',
  'invoke lambda function',
  'add days to date',
  'encrypt data with kms key',
  'get object tagging',
  'select:mcp__aws_sdk_s3__create_bucket',
];

const build = await measure('build catalog (10,000 tools)', () => createDeferredToolCatalog(tools), 5, 1);
const catalog = createDeferredToolCatalog(tools);
const activation = new SessionActivation();
const searchTools = createSearchToolsTool({ catalog, activationFor: () => activation });
const context: ToolExecutionContext = {
  authorized: true,
  workspaceRoot: '/nonexistent',
  sessionId: 'bench',
  turnId: 'turn',
  toolCallId: 'call',
  signal: new AbortController().signal,
};

for (const query of queries.slice(0, 8))
  console.log(
    `  ${JSON.stringify(query)} -> ${catalog
      .search(query)
      .slice(0, 3)
      .map((match) => match.name)
      .join(', ')}`,
  );

// The reference: what a first version would write, lowercasing every field of every tool and
// testing each query word with includes(), per query, then sorting all hits.
function naiveSearch(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/\W+/)
    .filter((word) => word.length > 0);
  const scored: { name: string; score: number }[] = [];
  for (const tool of tools) {
    const fields = [
      tool.name,
      ...(tool.searchMetadata?.aliases ?? []),
      ...(tool.searchMetadata?.tags ?? []),
      tool.searchMetadata?.searchHint ?? '',
      tool.description,
    ];
    const weights = [16, 8, 4, 2, 1];
    let score = 0;
    for (const word of words) {
      let best = 0;
      fields.forEach((field, index) => {
        if (field.toLowerCase().includes(word)) best = Math.max(best, weights[Math.min(index, 4)]!);
      });
      score += best;
    }
    if (score > 0) scored.push({ name: tool.name, score });
  }
  return scored
    .sort((left, right) => right.score - left.score || (left.name < right.name ? -1 : 1))
    .slice(0, 10)
    .map((hit) => hit.name);
}

let next = 0;
const nextQuery = (): string => queries[next++ % queries.length]!;
const runs = queries.length * 20;
const naive = await measure(
  'naive linear scan (lowercase + includes)',
  () => naiveSearch(nextQuery()),
  queries.length * 2,
  2,
);
next = 0;
const ranked = await measure('catalog.search', () => catalog.search(nextQuery()), runs, queries.length);
next = 0;
const tool = await measure(
  'search_tools execute (search + activate + result text)',
  async () => {
    activation.reset();
    return searchTools.execute({ query: nextQuery() }, context);
  },
  runs,
  queries.length,
);
activation.reset(tools.slice(0, 5).map((definition) => definition.name));
composeRequestTools(tools, activation, catalog);
const compose = await measure(
  'composeRequestTools (10,000 in table, 5 active)',
  () => composeRequestTools(tools, activation, catalog),
  50,
  3,
);

report('deferred-tools: search over 10,000 deferred tools', naive, [ranked, tool, compose, build]);
console.log(
  `search_tools median ${tool.medianMs.toFixed(3)} ms (target < 5 ms); the naive scan takes ${(naive.medianMs / tool.medianMs).toFixed(0)}x as long`,
);

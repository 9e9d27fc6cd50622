import { testdir } from '@clawsmith/test-utils';
import { openToolHost } from '@clawsmith/tool-host';
import { RunContext } from '@openai/agents';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openAiAgentsTools } from './openai-agents-tools.js';

type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  anyOf?: Schema[];
  minimum?: number;
};

/** Every object level of a strict schema: all properties required, no other properties. */
function strictViolations(schema: Schema, at = '$'): string[] {
  const found: string[] = [];
  if (schema.properties) {
    const keys = Object.keys(schema.properties);
    if (schema.additionalProperties !== false) found.push(`${at}: additionalProperties is not false`);
    for (const key of keys) {
      if (!schema.required?.includes(key)) found.push(`${at}.${key}: not required`);
      found.push(...strictViolations(schema.properties[key]!, `${at}.${key}`));
    }
  }
  for (const option of schema.anyOf ?? []) found.push(...strictViolations(option, at));
  return found;
}

async function tools(files: Record<string, string> = {}) {
  const host = await openToolHost({ home: testdir({}), workspaceRoot: testdir(files), permissionMode: 'full-auto' });
  onTestFinished(() => host.close());
  return openAiAgentsTools(host).tools;
}

describe('openAiAgentsTools schemas in strict mode', () => {
  it('gives every host tool a strict schema that still carries its limits', async () => {
    const all = await tools();
    expect(all.map((tool) => tool.name)).toContain('read_file');
    for (const tool of all) {
      expect(tool.strict, tool.name).toBe(true);
      expect(strictViolations(tool.parameters as Schema), tool.name).toEqual([]);
    }
    const readFile = all.find((tool) => tool.name === 'read_file')!;
    const offset = (readFile.parameters as Schema).properties!.offset!;
    // Optional in zod: nullable in strict mode, with its lower bound kept.
    expect(offset.anyOf).toEqual([expect.objectContaining({ type: 'integer', minimum: 0 }), { type: 'null' }]);
  });

  it('runs a call sent in strict form (nulls for left-out fields) and still enforces the integer limits', async () => {
    const readFile = (await tools({ 'a.txt': 'one\ntwo\n' })).find((tool) => tool.name === 'read_file')!;
    const context = new RunContext();
    const strictNulls = { offset: null, length: null, startLine: null, endLine: null };
    const ok = await readFile.invoke(context, JSON.stringify({ path: 'a.txt', ...strictNulls }));
    expect(ok).toBe('one\ntwo\n');
    const negative = await readFile.invoke(context, JSON.stringify({ path: 'a.txt', ...strictNulls, offset: -5 }));
    expect(negative).toMatch(
      /^\[error invalid_arguments; retryable: yes\]\nThe arguments of read_file do not match its schema: offset/,
    );
  });
});

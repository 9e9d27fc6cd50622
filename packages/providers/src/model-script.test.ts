import { describe, expect, it } from 'vitest';
import { ModelScriptError, formatJsonPath, parseModelScript } from './model-script.js';

function failure(text: string): ModelScriptError {
  try {
    parseModelScript(text, 'demo.json');
  } catch (error) {
    if (error instanceof ModelScriptError) return error;
    throw error;
  }
  throw new Error('parseModelScript accepted the script');
}

describe('parseModelScript', () => {
  it('accepts the documented shape, a BOM and an empty response list', () => {
    expect(parseModelScript('\uFEFF{"responses": [{"text": "hi"}, {}]}')).toEqual({ responses: [{ text: 'hi' }, {}] });
    expect(parseModelScript('{"responses": []}')).toEqual({ responses: [] });
  });

  it.each([
    ['a trailing comma', '{"responses": [\n  {"text": "a"},\n]}', 3, 1],
    ['a missing colon', '{"responses" []}', 1, 14],
    ['text after the document', '{"responses": []}\nmore', 2, 1],
    ['a document cut short', '{"responses": [\n  {"text": "a"', 2, 15],
    ['an empty file', '', 1, 1],
  ])('names the line and column of %s', (_what, text, line, column) => {
    const error = failure(text);
    expect(error.code).toBe('invalid_script');
    expect(error.retryable).toBe(false);
    expect(error.location).toEqual({ kind: 'position', line, column });
    expect(error.message).toMatch(new RegExp(`^demo\\.json:${line}:${column}: not valid JSON: `));
    expect(error.message).toContain('A script is {"responses"');
  });

  it.each([
    ['a top level that is not an object', '[]', '(the top level)', /expected object/],
    ['a missing responses list', '{}', 'responses', /expected array/],
    ['a misspelt field', '{"responses": [{"toolcalls": []}]}', 'responses[0]', /unknown field "toolcalls"/],
    [
      'a tool call without a name',
      '{"responses": [{}, {}, {"toolCalls": [{"id": "c"}]}]}',
      'responses[2].toolCalls[0].name',
      /expected string/,
    ],
    [
      'a numeric name',
      '{"responses": [{"toolCalls": [{"name": 7}]}]}',
      'responses[0].toolCalls[0].name',
      /expected string/,
    ],
    [
      'an empty name',
      '{"responses": [{"toolCalls": [{"name": ""}]}]}',
      'responses[0].toolCalls[0].name',
      /too small|>=1/i,
    ],
    [
      'arguments that are an array',
      '{"responses": [{"toolCalls": [{"name": "a", "arguments": [1]}]}]}',
      'responses[0].toolCalls[0].arguments',
      /invalid/i,
    ],
    ['text that is a number', '{"responses": [{"text": 3}]}', 'responses[0].text', /expected string/],
    [
      'negative usage',
      '{"responses": [{"usage": {"inputTokens": -1, "outputTokens": 0}}]}',
      'responses[0].usage.inputTokens',
      /too small|>=0/i,
    ],
  ])('names the JSON path of %s', (_what, text, path, reason) => {
    const error = failure(text);
    expect(error.code).toBe('invalid_script');
    expect(error.location).toEqual({ kind: 'path', path });
    expect(error.message).toContain(`demo.json: ${path}: `);
    expect(error.message).toMatch(reason);
  });
});

describe('formatJsonPath', () => {
  it('writes indexes in brackets and keys with dots', () => {
    expect(formatJsonPath(['responses', 2, 'toolCalls', 0, 'name'])).toBe('responses[2].toolCalls[0].name');
    expect(formatJsonPath([])).toBe('(the top level)');
  });
});

describe('parseModelScript with hostile input', () => {
  it('reports absurd nesting as an error instead of overflowing the stack', () => {
    const error = failure('['.repeat(100_000));
    expect(error.code).toBe('invalid_script');
    expect(error.location?.kind).toBe('position');
  });

  it('rejects valid JSON of absurd depth by its shape, not by crashing', () => {
    const deep = `{"responses": [{"toolCalls": [{"name": "a", "arguments": {"x": ${'['.repeat(5000)}${']'.repeat(5000)}}}]}]}`;
    expect(parseModelScript(deep).responses[0]!.toolCalls![0]!.name).toBe('a');
  });
});

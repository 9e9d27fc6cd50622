import { describe, expect, it } from 'vitest';
import { parseArguments, toolCallView, toolKind } from './tool-call-view.js';

describe('toolCallView', () => {
  it('gives each file tool its ACP kind, a title and the absolute paths it touches', () => {
    expect(toolCallView('/work', 'edit_file', { path: 'src/a.ts', oldText: 'x', newText: 'y' })).toEqual({
      kind: 'edit',
      title: 'Edit src/a.ts',
      locations: [{ path: '/work/src/a.ts' }],
    });
    expect(toolCallView('/work', 'rename_file', { from: 'a.txt', to: 'b/a.txt' })).toEqual({
      kind: 'move',
      title: 'Move a.txt → b/a.txt',
      locations: [{ path: '/work/a.txt' }, { path: '/work/b/a.txt' }],
    });
    expect(toolCallView('/work', 'delete_file', { path: 'old.txt' }).kind).toBe('delete');
    expect(toolCallView('/work', 'search_files', { query: 'needle', path: 'src' }).title).toBe(
      'Search for needle in src',
    );
  });

  it('shows a command on one line and keeps unknown tools and odd input as they are', () => {
    expect(toolCallView('/work', 'run_command', { command: 'npm test\n  -- --watch=false' })).toEqual({
      kind: 'execute',
      title: '$ npm test -- --watch=false',
      locations: [],
    });
    expect(toolCallView('/work', 'mcp__github__create_issue', 'not an object')).toEqual({
      kind: 'other',
      title: 'mcp__github__create_issue',
      locations: [],
    });
    expect([toolKind('todo_write'), toolKind('glob_files'), toolKind('read_artifact')]).toEqual([
      'think',
      'search',
      'read',
    ]);
  });
});

describe('parseArguments', () => {
  it('parses JSON and keeps text that is not JSON as text', () => {
    expect(parseArguments('{"path":"a"}')).toEqual({ path: 'a' });
    expect(parseArguments('{"path":')).toBe('{"path":');
  });
});

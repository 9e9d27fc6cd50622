import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceTrustRecords } from './workspace-trust-records.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function recordsFile(): string {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-trust-'));
  folders.push(home);
  return join(home, 'mcp', 'trust.json');
}

describe('WorkspaceTrustRecords', () => {
  it('records, reads back, tells a changed content from the trusted one, and forgets', () => {
    const file = recordsFile();
    const records = new WorkspaceTrustRecords(file);
    expect(records.stateOf('/w', 'docs', 'a'.repeat(64))).toBe('untrusted');
    records.record('/w', 'docs', 'a'.repeat(64));
    records.record('/w', 'lint', 'b'.repeat(64));
    records.record('/other', 'docs', 'c'.repeat(64));
    expect(records.stateOf('/w', 'docs', 'a'.repeat(64))).toBe('trusted');
    expect(records.stateOf('/w', 'docs', 'd'.repeat(64))).toBe('changed');
    expect(records.recorded('/other', 'docs')).toBe('c'.repeat(64));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(records.forget('/w', 'docs')).toBe(true);
    expect(records.forget('/w', 'docs')).toBe(false);
    expect(records.stateOf('/w', 'docs', 'a'.repeat(64))).toBe('untrusted');
    expect(records.stateOf('/w', 'lint', 'b'.repeat(64))).toBe('trusted');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      workspaces: { '/w': { lint: 'b'.repeat(64) }, '/other': { docs: 'c'.repeat(64) } },
    });
  });

  it('trusts nothing when the file is unreadable or of another shape (fails closed)', () => {
    const file = recordsFile();
    const records = new WorkspaceTrustRecords(file);
    records.record('/w', 'docs', 'a'.repeat(64));
    for (const content of ['{not json', '{"version":2,"workspaces":{"/w":{"docs":"x"}}}', 'null']) {
      writeFileSync(file, content);
      expect(records.stateOf('/w', 'docs', 'a'.repeat(64))).toBe('untrusted');
    }
  });
});

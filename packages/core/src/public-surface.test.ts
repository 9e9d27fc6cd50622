import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as testing from './testing.js';

describe('@clawsmith/core public surface', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ApprovalBroker',
      'DELEGATION_LIMITS',
      'DuplicateToolError',
      'PERMISSION_MODES',
      'SECRET_FILE_GLOBS',
      'SESSION_CHANGE_CHANNEL',
      'SETTINGS_HOOK_EVENTS',
      'SettingsError',
      'TOOL_ALIASES',
      'buildToolTable',
      'coreMigrations',
      'createAgentCore',
      'createBuiltinTools',
      'decidePermission',
      'effectiveSettings',
      'isParallelBatch',
      'migrateCore',
      'openClawsmithDatabase',
      'openClawsmithHome',
      'parseSettingsRule',
      'projectSettingsFiles',
      'readSettingsFile',
      'renderTodos',
      'resolveClawsmithHome',
      'resolveDatabaseUrl',
      'retentionSummary',
      'runRetention',
      'settingsFileSchema',
      'trustProjectSettings',
      'undoConflictsOf',
    ]);
  });

  it('keeps the session store out of the root: tests of other packages write through the testing entry point', () => {
    expect(Object.keys(testing).sort()).toEqual(['SessionStore']);
  });

  it('keeps its permission modes and delegation limits', () => {
    expect(api.PERMISSION_MODES).toEqual(['default', 'accept-edits', 'read-only', 'full-auto']);
    expect(api.DELEGATION_LIMITS).toEqual({
      tasksPerBatch: 4,
      background: 4,
      childSteps: 20,
      summaryChars: 8000,
      filesConsulted: 50,
      patchChars: 40_000,
    });
  });

  it('keeps the channel on which processes of every version announce session changes', () => {
    expect(api.SESSION_CHANGE_CHANNEL).toBe('clawsmith_session_changed');
  });

  it('documents every permission mode in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const mode of api.PERMISSION_MODES) expect(readme).toContain(`\`${mode}\``);
  });
});

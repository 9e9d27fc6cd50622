import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/tool-host public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_INLINE_CONTENT_LIMIT',
      'DEFAULT_PATH_ARGUMENTS',
      'DuplicateToolError',
      'FRAMEWORK_APPROVAL_KIND',
      'HOME_BUSY_TIMEOUT_MS',
      'PERMISSION_MODES',
      'SECRET_FILE_GLOBS',
      'approvesCall',
      'buildToolTable',
      'createToolHost',
      'decidePermission',
      'excludedPaths',
      'executeJudgedCall',
      'hookInput',
      'isFrameworkApprovalRequest',
      'judgeCall',
      'keepInlineBounded',
      'openToolHost',
      'parseCallArguments',
      'requestPaths',
      'resolveCallFacts',
      'resolveDatabaseUrl',
      'resultText',
      'runAuthorized',
      'runHooks',
      'runResultHooks',
      'safeSummary',
    ]);
  });

  it('keeps its modes and the inline limit', () => {
    expect(api.PERMISSION_MODES).toEqual(['default', 'accept-edits', 'read-only', 'full-auto']);
    expect(api.DEFAULT_INLINE_CONTENT_LIMIT).toBe(50_000);
    expect(api.HOME_BUSY_TIMEOUT_MS).toBe(60_000);
  });
});

import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/adapter-mastra public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual(['APPROVAL_KIND', 'isApprovalRequest', 'mastraTools']);
    expect(api.APPROVAL_KIND).toBe('clawsmith_approval');
  });
});

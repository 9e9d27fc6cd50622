import { resolveToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { decidePermission, type PermissionRule } from './permission-policy.js';

const network = resolveToolSecurity({ risk: 'execute', capabilities: ['network'] });
const decide = (rules: PermissionRule[], url: unknown, mode: 'default' | 'full-auto' = 'default') =>
  decidePermission(mode, rules, { toolName: 'web_fetch', input: { url }, security: network });

describe('decidePermission with domain rules', () => {
  const rules: PermissionRule[] = [
    { action: 'allow', tool: 'web_fetch', domains: ['docs.example.com', '*.nodejs.org'] },
    { action: 'deny', tool: 'web_fetch', domains: ['*.internal.example.com'], reason: 'intranet stays closed' },
  ];

  it('allows, asks and denies by the host of the URL fetched', () => {
    expect(decide(rules, 'https://docs.example.com/guide')).toEqual({
      action: 'allow',
      reason: 'rule allow (tool web_fetch; domains docs.example.com, *.nodejs.org)',
    });
    expect(decide(rules, 'https://API.nodejs.org./dist').action).toBe('allow');
    expect(decide(rules, 'https://nodejs.org/').action).toBe('ask');
    expect(decide(rules, 'https://example.com.evil.test/').action).toBe('ask');
    expect(decide(rules, 'https://wiki.internal.example.com/', 'full-auto')).toEqual({
      action: 'deny',
      reason: 'rule deny (tool web_fetch; domains *.internal.example.com): intranet stays closed',
    });
  });

  it('says nothing about a call that names no http(s) URL', () => {
    expect(decide(rules, 'file:///etc/passwd').action).toBe('ask');
    expect(decide(rules, 'not a url').action).toBe('ask');
    expect(decide(rules, 42).action).toBe('ask');
  });
});

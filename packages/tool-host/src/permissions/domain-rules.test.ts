import { resolveToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { decidePermission, type PermissionRule } from './permission-policy.js';

const network = resolveToolSecurity({ risk: 'execute', capabilities: ['network'] });
const decide = (rules: PermissionRule[], input: unknown, mode: 'default' | 'full-auto' = 'default') =>
  decidePermission(mode, rules, { toolName: 'web_fetch', input, security: network });

describe('decidePermission with domain rules', () => {
  const rules: PermissionRule[] = [
    { action: 'allow', tool: 'web_fetch', domains: ['docs.example.com', '*.nodejs.org'] },
    { action: 'deny', tool: 'web_fetch', domains: ['*.internal.example.com'], reason: 'intranet stays closed' },
  ];

  it('allows, asks and denies by the host of the URL fetched', () => {
    expect(decide(rules, { url: 'https://docs.example.com/guide' })).toEqual({
      action: 'allow',
      reason: 'rule allow (tool web_fetch; domains docs.example.com, *.nodejs.org)',
    });
    expect(decide(rules, { url: 'https://API.nodejs.org./dist' }).action).toBe('allow');
    expect(decide(rules, { url: 'https://nodejs.org/' }).action).toBe('ask');
    expect(decide(rules, { url: 'https://example.com.evil.test/' }).action).toBe('ask');
    expect(decide(rules, { url: 'https://wiki.internal.example.com/' }, 'full-auto')).toEqual({
      action: 'deny',
      reason: 'rule deny (tool web_fetch; domains *.internal.example.com): intranet stays closed',
    });
  });

  it('fails closed on a URL it cannot read: a deny rule matches it, an allow rule never does', () => {
    const allowEverything: PermissionRule[] = [{ action: 'allow', tool: 'web_fetch', domains: ['*'] }];
    for (const url of ['file:///etc/passwd', 'not a url', 42, 'https://']) {
      expect(decide(rules, { url }, 'full-auto')).toMatchObject({ action: 'deny', reason: /intranet stays closed/ });
      expect(decide(allowEverything, { url }).action).toBe('ask');
    }
    expect(decide(allowEverything, { url: 'https://anything.test/' }).action).toBe('allow');
  });

  it('says nothing about a call that names no URL', () => {
    expect(decide(rules, { query: 'x' }, 'full-auto').action).toBe('allow');
    expect(decide(rules, { query: 'x' }).action).toBe('ask');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/command-sandbox public surface', () => {
  it('exports only its planned status until the contract is built', () => {
    expect(Object.keys(api).sort()).toEqual(['packageStatus']);
    expect(api.packageStatus).toBe('planned');
  });

  it('says plainly in its README that it is not built yet', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toMatch(/not built yet/i);
  });
});

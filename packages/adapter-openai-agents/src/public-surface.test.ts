import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/adapter-openai-agents public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual(['openAiAgentsTools']);
  });
});

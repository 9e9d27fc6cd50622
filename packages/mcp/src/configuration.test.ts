import { describe, expect, it } from 'vitest';
import * as configuration from './configuration.js';
import { mcpConfigurationFiles } from './index.js';

describe('@clawsmith/mcp/configuration', () => {
  it('exports exactly mcpConfigurationFiles, the same function as the root', () => {
    expect(Object.keys(configuration)).toEqual(['mcpConfigurationFiles']);
    expect(configuration.mcpConfigurationFiles).toBe(mcpConfigurationFiles);
  });

  it('names the user file, then the project files, highest precedence first', () => {
    expect(configuration.mcpConfigurationFiles('/home/someone/.clawsmith', '/work/project')).toEqual([
      { file: '/home/someone/.clawsmith/mcp.json', scope: 'user' },
      { file: '/work/project/.clawsmith/mcp.json', scope: 'project' },
      { file: '/work/project/.mcp.json', scope: 'project' },
    ]);
  });
});

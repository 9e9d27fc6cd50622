import { describe, expect, it } from 'vitest';
import { buildCommandEnvironment, isForbiddenEnvironmentName } from './index.js';

const source = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C',
  TERM: 'xterm',
  TZ: 'UTC',
  USER: 'me',
  TMPDIR: '/var/tmp',
  BASH_ENV: '/tmp/evil',
  ENV: '/tmp/evil',
  LD_PRELOAD: '/tmp/evil.so',
  DYLD_INSERT_LIBRARIES: '/tmp/evil.dylib',
  NODE_OPTIONS: '--require /tmp/evil.js',
  PYTHONPATH: '/tmp',
  GIT_CONFIG_GLOBAL: '/tmp/gitconfig',
  GIT_CONFIG_COUNT: '1',
  HTTPS_PROXY: 'http://proxy',
  http_proxy: 'http://proxy',
  OPENAI_API_KEY: 'sk-1',
  GITHUB_TOKEN: 'ghp_1',
  DB_PASSWORD: 'pw',
  AWS_SECRET_ACCESS_KEY: 'x',
  EDITOR: 'vim',
  CI: 'true',
};

describe('buildCommandEnvironment', () => {
  it('passes only the allowlist', () => {
    expect(buildCommandEnvironment({ source })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'C',
      TERM: 'xterm',
      TZ: 'UTC',
      USER: 'me',
      TMPDIR: '/var/tmp',
    });
  });

  it('adds names the user allows, but never a forbidden one', () => {
    expect(buildCommandEnvironment({ source, additions: ['CI', 'EDITOR'] })).toMatchObject({
      CI: 'true',
      EDITOR: 'vim',
    });
    for (const name of [
      'BASH_ENV',
      'ENV',
      'LD_PRELOAD',
      'DYLD_INSERT_LIBRARIES',
      'NODE_OPTIONS',
      'PYTHONPATH',
      'GIT_CONFIG_GLOBAL',
      'HTTPS_PROXY',
      'http_proxy',
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'DB_PASSWORD',
    ]) {
      expect(isForbiddenEnvironmentName(name)).toBe(true);
      expect(() => buildCommandEnvironment({ source, additions: [name] })).toThrow(
        expect.objectContaining({ code: 'environment_name_forbidden' }),
      );
    }
  });

  it('supplies a plain PATH when the source has none', () => {
    expect(buildCommandEnvironment({ source: {} })).toEqual({ PATH: '/usr/local/bin:/usr/bin:/bin' });
  });
});

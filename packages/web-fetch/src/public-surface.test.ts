import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/web-fetch public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'HTTP_ERROR_CODE',
      'REDIRECT_TO_OTHER_HOST_CODE',
      'WEB_FETCH_DEFAULTS',
      'WEB_FETCH_ERROR_CODES',
      'WebFetchError',
      'createWebFetchTool',
      'fetchReadable',
      'webFetchInputSchema',
    ]);
  });

  it('keeps its codes and default limits', () => {
    expect(api.WEB_FETCH_ERROR_CODES).toEqual({
      urlRefused: 'url_refused',
      addressRefused: 'address_refused',
      hostNotFound: 'host_not_found',
      timeout: 'fetch_timeout',
      tooManyRedirects: 'too_many_redirects',
      binaryContent: 'binary_content',
      fetchFailed: 'fetch_failed',
    });
    expect([api.HTTP_ERROR_CODE, api.REDIRECT_TO_OTHER_HOST_CODE]).toEqual(['http_error', 'redirect_to_other_host']);
    expect(api.WEB_FETCH_DEFAULTS).toEqual({
      timeoutMs: 30_000,
      maxRedirects: 5,
      maxBodyBytes: 10_485_760,
      userAgent: 'clawsmith-web-fetch/0.1',
    });
  });

  it('declares web_fetch as a network tool', () => {
    const tool = api.createWebFetchTool();
    expect([tool.name, tool.risk, tool.capabilities, tool.concurrencySafe]).toEqual([
      'web_fetch',
      'execute',
      ['network'],
      false,
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { linkTarget, shownTarget } from './link-target';

describe('linkTarget', () => {
  it('keeps absolute web and mail links', () => {
    expect(linkTarget('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c');
    expect(linkTarget(' http://example.com ')).toBe('http://example.com/');
    expect(linkTarget('mailto:someone@example.com')).toBe('mailto:someone@example.com');
  });

  it('drops script, data, file and relative targets', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      '/api/logout',
      '../sessions',
      '//other.example/x',
      'vbscript:msgbox(1)',
      '',
    ])
      expect(linkTarget(url), url).toBe('');
  });
});

describe('shownTarget', () => {
  it('shows a mail address without its scheme and a web link in full', () => {
    expect(shownTarget('mailto:someone@example.com')).toBe('someone@example.com');
    expect(shownTarget('https://example.com/')).toBe('https://example.com/');
  });
});

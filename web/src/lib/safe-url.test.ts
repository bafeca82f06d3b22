import { safeHref } from './safe-url';

describe('safeHref', () => {
  it.each(['https://example.com/a?b=c#d', 'http://example.com', 'HTTPS://EXAMPLE.COM/', '/post/hello', '/'])('keeps %s', (link) => {
    expect(safeHref(link)).toBe(link);
  });

  it.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example',
    '/\\evil.example',
    'https://a b',
    'post/relative',
    'mailto:a@example.com',
    '',
    null,
    undefined,
  ])('refuses %s', (link) => {
    expect(safeHref(link)).toBeNull();
  });
});

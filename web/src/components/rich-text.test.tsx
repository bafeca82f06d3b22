import { render } from '@testing-library/react';
import { plainText, RichText } from './rich-text';

function html(input: string): string {
  const { container } = render(<RichText html={input} />);
  return container.firstElementChild!.innerHTML;
}

describe('RichText', () => {
  it('keeps the inline tags and their text, and plain text as it is', () => {
    expect(html('Hello <b>bold</b>, <em>em</em> <code>x &lt; y</code><br>next')).toBe('Hello <b>bold</b>, <em>em</em> <code>x &lt; y</code><br>next');
    expect(html('a < b & c')).toBe('a &lt; b &amp; c');
    expect(html('<span class="mark">x</span>')).toBe('<span class="mark">x</span>');
  });

  it('drops scripts, handlers, styles, frames and foreign content, with what is inside them', () => {
    const out = html(
      'a<img src=x onerror=alert(1)><script>alert(1)</script><style>*{}</style><iframe src="https://e.x"></iframe>' +
        '<svg><script>alert(2)</script></svg><math><mi>x</mi></math>' +
        '<template><b>t</b></template><b onclick="alert(4)" style="color:red" id="i">c</b>',
    );
    expect(out).toBe('a<b>c</b>');
    expect(html('x<noscript><p title="</noscript><img src=x onerror=alert(3)>">b</noscript>')).toBe('x');
  });

  it('gives way to unknown elements but keeps their text', () => {
    expect(html('<div><p>one</p><h1>two</h1><table><tr><td>three</td></tr></table></div>')).toBe('onetwothree');
  });

  it('links go to http(s) or mailto only, in a new tab without the opener', () => {
    const out = html(
      '<a href="https://example.com/a?b=1&amp;c=2">ok</a><a href=" javascript:alert(1)">js</a><a href="data:text/html,x">data</a><a href="mailto:a@b.c" target="_self" rel="opener">mail</a><a href="/relative">rel</a>',
    );
    const div = document.createElement('div');
    div.innerHTML = out;
    const links = [...div.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/a?b=1&c=2', null, null, 'mailto:a@b.c', null]);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
  });

  it('the plain text of inline HTML, without what scripts or styles hold', () => {
    expect(plainText('A <i>picture</i> <script>alert(1)</script><style>p{}</style>of &amp; <b>it</b> ')).toBe('A picture of & it');
    expect(plainText(null)).toBe('');
  });
});

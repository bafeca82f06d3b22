import { createElement, Fragment, useMemo, type ReactNode } from 'react';

/** The inline markup a post block may carry (what the server's sanitiser keeps). */
const ALLOWED_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 's', 'mark', 'code', 'sub', 'sup', 'br', 'span', 'a']);
/** Link targets that may be followed; anything else loses its `href`. */
const SAFE_URL = /^(?:https?:|mailto:)/i;
/** Elements dropped with everything inside them: their content is never text to show. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'title',
  'head',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
]);
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * The nodes of an HTML fragment, parsed by the browser into an inert document (DOMParser: nothing
 * in it runs or loads).
 */
function parse(html: string): NodeListOf<ChildNode> {
  return new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html').body.childNodes;
}

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.localName;
  if (el.namespaceURI !== HTML_NS || DROPPED_WITH_CONTENT.has(tag)) return null;
  const children = Array.from(el.childNodes, toReact);
  // Any other element gives way to its content (as the server's sanitiser does).
  if (!ALLOWED_TAGS.has(tag)) return createElement(Fragment, { key }, ...children);
  const props: Record<string, string | number> = { key };
  const className = el.getAttribute('class');
  if (className) props.className = className;
  if (tag === 'a') {
    const href = (el.getAttribute('href') ?? '').trim();
    if (SAFE_URL.test(href)) props.href = href;
    props.target = '_blank';
    props.rel = 'noopener noreferrer nofollow';
  }
  return tag === 'br' ? createElement('br', props) : createElement(tag, props, ...children);
}

/**
 * Inline HTML from a post block or a comment, already sanitised by the server, rendered once
 * more through an allowlist (defence in depth): only the inline tags above become elements (as
 * React elements built from the browser's inert parse, never an HTML string given to the page),
 * only `class` is kept, links go to http(s) or mailto only and open in a new tab without the
 * opener. See docs/decisions.md (issue 29) for why this is not DOMPurify.
 */
export function inlineHtml(html: string): ReactNode[] {
  if (!html) return [];
  // Plain text (the common case) needs no parsing.
  if (!/[<&]/.test(html)) return [html];
  return Array.from(parse(html), toReact);
}

export function RichText({ html, as = 'span', className }: { html: string | null | undefined; as?: string; className?: string }) {
  const children = useMemo(() => inlineHtml(html ?? ''), [html]);
  return createElement(as, { className }, ...children);
}

function textOf(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const el = node as Element;
  if (el.namespaceURI !== HTML_NS || DROPPED_WITH_CONTENT.has(el.localName)) return '';
  return Array.from(el.childNodes, textOf).join('');
}

/** The text of inline HTML (for alt texts and titles). */
export function plainText(html: string | null | undefined): string {
  if (!html) return '';
  return Array.from(parse(html), textOf).join('').trim();
}

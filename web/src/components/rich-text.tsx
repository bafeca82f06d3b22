import DOMPurify from 'dompurify';
import { createElement, useMemo } from 'react';

/** The inline markup a post block may carry (what the server's sanitiser keeps). */
const ALLOWED_TAGS = ['b', 'strong', 'i', 'em', 'u', 's', 'mark', 'code', 'sub', 'sup', 'br', 'span', 'a'];
const ALLOWED_ATTR = ['href', 'class', 'rel', 'target'];

/**
 * Inline HTML from a post block, already sanitised by the server, passed once more through
 * DOMPurify with the same allowlist (defence in depth): only inline tags, links to http(s) or
 * mailto only, opening in a new tab without the opener.
 */
export function cleanInlineHtml(html: string): string {
  const clean = DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
  return clean.replace(/<a /g, '<a target="_blank" rel="noopener noreferrer nofollow" ');
}

export function RichText({ html, as = 'span', className }: { html: string | null | undefined; as?: string; className?: string }) {
  const clean = useMemo(() => cleanInlineHtml(html ?? ''), [html]);
  return createElement(as, { className, dangerouslySetInnerHTML: { __html: clean } });
}

/** The text of inline HTML (for alt texts and titles). */
export function plainText(html: string | null | undefined): string {
  const div = document.createElement('div');
  div.innerHTML = DOMPurify.sanitize(html ?? '', { ALLOWED_TAGS: [] });
  return (div.textContent ?? '').trim();
}

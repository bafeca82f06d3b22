import { memo, useState, type ReactNode } from 'react';
import { allowedEmbed } from '@/lib/embeds';
import { safeHref } from '@/lib/safe-url';
import type { Block } from '@/types/entities';
import { plainText, RichText } from '../rich-text';
import { blockImageMeta, ResponsiveImage } from '../responsive-image';

type ListItem = string | { content?: string; items?: ListItem[]; meta?: { checked?: boolean } };

function ListItems({ items, ordered, checklist }: { items: ListItem[]; ordered: boolean; checklist: boolean }) {
  const Tag = ordered ? 'ol' : 'ul';
  return (
    <Tag className={checklist ? 'block-list block-list--checklist' : 'block-list'}>
      {items.map((item, i) => {
        const content = typeof item === 'string' ? item : (item.content ?? '');
        const nested = typeof item === 'string' ? [] : (item.items ?? []);
        const checked = typeof item === 'string' ? false : Boolean(item.meta?.checked);
        return (
          <li key={i}>
            {checklist ? <input type="checkbox" checked={checked} readOnly disabled aria-label={checked ? 'Done' : 'Not done'} /> : null}
            <RichText html={content} />
            {nested.length > 0 ? <ListItems items={nested} ordered={ordered} checklist={checklist} /> : null}
          </li>
        );
      })}
    </Tag>
  );
}

function CodeBlock({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="block-code">
      <button type="button" className="button button--small button--ghost block-code__copy" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <pre>
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** What draws the blocks that need the store: polls, and the "Support this post" card (`tip`). */
interface BlockRenderers {
  renderPoll?: (block: Block) => ReactNode;
  renderTip?: (block: Block) => ReactNode;
}

/** Renders one block of any type the server accepts; unknown types render nothing. */
export function PostBlock({ block, renderPoll, renderTip }: { block: Block } & BlockRenderers) {
  const d = block.data ?? {};
  const text = (key: string) => (typeof d[key] === 'string' ? d[key] : '');
  switch (block.type) {
    case 'paragraph':
      return <RichText as="p" className="block-paragraph" html={text('text')} />;
    case 'header': {
      const level = Math.min(6, Math.max(2, Number(d.level) || 2));
      return <RichText as={`h${level}`} className="block-header" html={text('text')} />;
    }
    case 'list': {
      const style = text('style') || 'unordered';
      return <ListItems items={(d.items as ListItem[]) ?? []} ordered={style === 'ordered'} checklist={style === 'checklist'} />;
    }
    case 'checklist': {
      const items = ((d.items as { text?: string; checked?: boolean }[]) ?? []).map((i) => ({ content: i.text ?? '', meta: { checked: Boolean(i.checked) } }));
      return <ListItems items={items} ordered={false} checklist />;
    }
    case 'quote':
      return (
        <figure className={`block-quote ${d.alignment === 'center' ? 'block-quote--center' : ''}`}>
          <RichText as="blockquote" html={text('text')} />
          {text('caption') ? <RichText as="figcaption" html={`— ${text('caption')}`} /> : null}
        </figure>
      );
    case 'code':
      return <CodeBlock code={text('code')} />;
    case 'delimiter':
      return <hr className="block-delimiter" />;
    case 'image': {
      const file = d.file as { url?: string; width?: number; height?: number } | undefined;
      const url = file?.url ?? '';
      const src = url.startsWith('/media/') ? url : safeHref(url);
      if (!src) return null;
      const caption = text('caption');
      return (
        <figure className={`block-image ${d.stretched ? 'block-image--stretched' : ''} ${d.withBorder ? 'block-image--border' : ''} ${d.withBackground ? 'block-image--background' : ''}`}>
          <ResponsiveImage src={src} alt={text('alt').trim() || plainText(caption) || 'Image in the post'} meta={blockImageMeta(file, src)} />
          {caption ? <RichText as="figcaption" html={caption} /> : null}
        </figure>
      );
    }
    case 'embed': {
      const src = allowedEmbed(d.service, d.embed);
      const caption = text('caption');
      if (!src) {
        const source = safeHref(text('source'));
        return source ? (
          <p className="block-embed block-embed--link">
            <a href={source} target="_blank" rel="noopener noreferrer nofollow">
              {source}
            </a>
          </p>
        ) : null;
      }
      return (
        <figure className="block-embed">
          <iframe
            src={src}
            title={plainText(caption) || `Embedded ${String(d.service)} content`}
            sandbox="allow-scripts allow-same-origin allow-popups allow-presentation"
            referrerPolicy="strict-origin-when-cross-origin"
            loading="lazy"
            allowFullScreen
          />
          {caption ? <RichText as="figcaption" html={caption} /> : null}
        </figure>
      );
    }
    case 'table': {
      const rows = (d.content as string[][]) ?? [];
      const withHeadings = Boolean(d.withHeadings) && rows.length > 0;
      const body = withHeadings ? rows.slice(1) : rows;
      return (
        <div className="block-table">
          <table>
            {withHeadings ? (
              <thead>
                <tr>
                  {rows[0].map((cell, i) => (
                    <RichText key={i} as="th" html={cell} />
                  ))}
                </tr>
              </thead>
            ) : null}
            <tbody>
              {body.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <RichText key={c} as="td" html={cell} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'poll':
      return renderPoll ? <>{renderPoll(block)}</> : null;
    case 'tip':
      return renderTip ? <>{renderTip(block)}</> : null;
    default:
      return null;
  }
}

/**
 * A post's body: every block in order. Polls and the support card are drawn by `renderPoll` and
 * `renderTip` (they need the store). Memoised: a post read again with only its counts changed
 * keeps its blocks' object (posts-slice), and the body is not drawn again.
 */
export const PostBlocks = memo(function PostBlocks({ blocks, renderPoll, renderTip }: { blocks: Block[] } & BlockRenderers) {
  return (
    <div className="post-body">
      {blocks.map((block) => (
        <PostBlock key={block.id} block={block} renderPoll={renderPoll} renderTip={renderTip} />
      ))}
    </div>
  );
});

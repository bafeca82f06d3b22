import { PostBlock } from '@/components/blocks/post-blocks';
import { plainText, RichText } from '@/components/rich-text';
import { textOf } from '@/lib/format';
import type { Block } from '@/types/entities';

/**
 * One block as a revision shows it: as readers see it, but a heading stays out of the page's
 * outline (styled text, not a heading element), and a poll or support card shows what it is
 * instead of its live widget.
 */
export function BlockPreview({ block }: { block: Block }) {
  const d = block.data ?? {};
  switch (block.type) {
    case 'header':
      return <RichText as="p" className="revision-block__heading" html={textOf(d.text)} />;
    case 'poll':
      return <p className="revision-block__note">Poll: {plainText(textOf(d.question)) || 'no question'}</p>;
    case 'tip':
      return <p className="revision-block__note">Support this post (a card inviting readers to tip)</p>;
    default:
      return <PostBlock block={block} />;
  }
}

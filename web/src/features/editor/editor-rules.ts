/** The editor's own checks before a save, the body it sends, and where a server error is shown. */
import { POST_FALLBACK, type PostInput } from '@/features/posts';
import { textOf } from '@/lib/format';
import { isBlobUrl } from '@/lib/image-file';
import type { Block } from '@/types/entities';
import type { FieldErrors } from './components/post-details-form';
import type { PostDetails } from './post-draft';
import { localToUtc, pollProblem, type PollData } from './tools/poll-tool';

/** Where a server error belongs: next to the field that caused it. */
export function placeError(message: string, status: number | null): FieldErrors {
  const lower = message.toLowerCase();
  if (status === 413 || lower.includes('too large')) {
    return { blocks: `${message} Images may be up to 5 MB each, and a post up to 8 MB in all.` };
  }
  if (lower.startsWith('block') || message === POST_FALLBACK.blocksRequired || message === POST_FALLBACK.blobUrl) return { blocks: message };
  if (lower.includes('thumbnail')) return { thumbnail: message };
  if (lower.includes('title')) return { title: message };
  if (lower.includes('categor')) return { category: message };
  if (lower.includes('tag')) return { tags: message };
  if (lower.includes('publishat') || lower.includes('schedul')) return { schedule: message };
  return { general: message };
}

/** Checks the blocks and details before a save; errors by field. */
export function checkBeforeSave(details: PostDetails, blocks: Block[], now = Date.now()): FieldErrors {
  const errors: FieldErrors = {};
  if (!details.title.trim()) errors.title = 'A post needs a title.';
  if (blocks.length === 0) errors.blocks = POST_FALLBACK.blocksRequired;
  const polls = blocks.filter((b) => b.type === 'poll');
  polls.forEach((block, i) => {
    const problem = pollProblem(block.data as unknown as PollData, now);
    if (problem && !errors.blocks) errors.blocks = `Poll ${i + 1} (“${textOf(block.data?.question)}”): ${problem}`;
  });
  if (isBlobUrl(details.thumbnail) || JSON.stringify(blocks).includes('"blob:')) errors.blocks = POST_FALLBACK.blobUrl;
  if (details.status === 'scheduled') {
    const at = localToUtc(details.publishAt);
    if (!at) errors.schedule = 'Choose the date and time to publish.';
    else if (new Date(at).getTime() <= now) errors.schedule = 'The publishing time must be in the future.';
  }
  return errors;
}

export function toInput(details: PostDetails, blocks: Block[]): PostInput {
  return {
    title: details.title.trim(),
    blocks,
    thumbnail: details.thumbnail,
    category: details.category,
    tags: details.tags,
    postType: details.postType,
    visibility: details.visibility,
    audience: details.audience,
    language: details.language || 'en',
    isFeatured: details.isFeatured,
    isPinned: details.isPinned,
    status: details.status,
    publishAt: details.status === 'scheduled' ? localToUtc(details.publishAt) : null,
    emailSubscribers: details.emailSubscribers,
  };
}

/**
 * The post being written, kept in local storage while editing (nothing typed is lost on a reload
 * or a failed save) and offered back when the editor opens again.
 */
import { storage } from '@/lib/storage';
import type { Block, Post } from '@/types/entities';
import { utcToLocal } from './tools/poll-tool';

export const DRAFT_KEY_PREFIX = 'postDraft:';

export interface PostDetails {
  title: string;
  thumbnail: string | null;
  category: string | null;
  tags: string[];
  postType: 'Article' | 'Blog';
  visibility: 'Public' | 'Private' | 'Unlisted';
  /** Who may read the blocks: everyone, or the author's subscribers (others see the teaser). */
  audience: 'everyone' | 'subscribers';
  language: string;
  isFeatured: boolean;
  isPinned: boolean;
  /** What saving does: keep a draft, publish now, or publish at `publishAt`. */
  status: 'draft' | 'published' | 'scheduled';
  /** `datetime-local` value in the writer's time zone. */
  publishAt: string;
  /** Email followers and email subscribers when the post becomes visible (yes by default). */
  emailSubscribers: boolean;
}

export interface PostDraft {
  details: PostDetails;
  blocks: Block[];
  savedAt: number;
}

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 40;

export function emptyDetails(): PostDetails {
  return {
    title: '',
    thumbnail: null,
    category: null,
    tags: [],
    postType: 'Article',
    visibility: 'Public',
    audience: 'everyone',
    language: 'en',
    isFeatured: false,
    isPinned: false,
    // Both seeds give a new post's status as draft: publishing is a choice the writer makes.
    status: 'draft',
    publishAt: '',
    emailSubscribers: true,
  };
}

/** The editor's details of a saved post. */
export function detailsOf(post: Post): PostDetails {
  return {
    ...emptyDetails(),
    title: post.title,
    thumbnail: post.thumbnail ?? null,
    category: post.category?._id ?? null,
    tags: post.tags ?? [],
    postType: post.postType ?? 'Article',
    visibility: post.visibility ?? 'Public',
    audience: post.audience === 'subscribers' ? 'subscribers' : 'everyone',
    language: post.language ?? 'en',
    isFeatured: Boolean(post.isFeatured),
    isPinned: Boolean(post.isPinned),
    status: post.status ?? 'published',
    publishAt: utcToLocal(post.publishAt),
  };
}

/** `new` for a new post, the slug for an edit. */
export const draftKey = (which: string) => `${DRAFT_KEY_PREFIX}${which}`;

export function readDraft(which: string): PostDraft | null {
  const draft = storage.getJson<PostDraft>(draftKey(which));
  if (!draft || typeof draft !== 'object' || !draft.details || !Array.isArray(draft.blocks)) return null;
  return { ...draft, details: { ...emptyDetails(), ...draft.details } };
}

export function writeDraft(which: string, draft: Omit<PostDraft, 'savedAt'>): void {
  storage.setJson(draftKey(which), { ...draft, savedAt: Date.now() });
}

export function clearDraft(which: string): void {
  storage.remove(draftKey(which));
}

/** Tags: trimmed, a leading # dropped, lowercase, de-duplicated, at most 10 of at most 40 characters. */
export function addTags(current: string[], raw: string): { tags: string[]; problem: string | null } {
  const tags = [...current];
  let problem: string | null = null;
  for (const part of raw.split(',')) {
    const tag = part.trim().replace(/^#+/, '').replace(/\s+/g, ' ').toLowerCase();
    if (!tag) continue;
    if (tag.length > MAX_TAG_LENGTH) {
      problem = `A tag may be at most ${MAX_TAG_LENGTH} characters.`;
      continue;
    }
    if (tags.includes(tag)) continue;
    if (tags.length >= MAX_TAGS) {
      problem = `A post may have at most ${MAX_TAGS} tags.`;
      break;
    }
    tags.push(tag);
  }
  return { tags, problem };
}

/**
 * Writes the draft to local storage a moment after each change. Collecting the editor's blocks is
 * asynchronous, so a write started before the post was saved could otherwise land after the save
 * cleared the draft: once `stop`ped, nothing more is written.
 */
export class LocalDraftKeeper {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly collect: () => Promise<Omit<PostDraft, 'savedAt'>>,
    private readonly store: (draft: Omit<PostDraft, 'savedAt'>) => void,
    private readonly delayMs: number,
  ) {}

  /** Something changed: write the draft after the delay (a later change moves it on). */
  changed(): void {
    if (this.stopped) return;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, this.delayMs);
  }

  private async write() {
    const draft = await this.collect();
    if (!this.stopped) this.store(draft);
  }

  /** Drop a write waiting for its time. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The post is saved (or the editor closed): no write waiting or under way lands any more. */
  stop(): void {
    this.stopped = true;
    this.cancel();
  }
}

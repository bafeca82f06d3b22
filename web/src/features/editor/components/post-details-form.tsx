import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { createCategory, fetchUserSelectedCategories, selectCategories, slugify, SlugHint, useSlugCheck } from '@/features/categories';
import { IMAGE_LIMIT_TEXT, imageToDataUrl } from '@/lib/image-file';
import type { CategoryRef } from '@/types/entities';
import { addTags, MAX_TAGS, type PostDetails } from '../post-draft';

export type FieldErrors = Partial<Record<'title' | 'thumbnail' | 'category' | 'tags' | 'blocks' | 'schedule' | 'general', string>>;

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  );
}

/** Creates a category inline, with the live slug check. */
function NewCategory({ onCreated, onCancel }: { onCreated: (c: CategoryRef) => void; onCancel: () => void }) {
  const dispatch = useAppDispatch();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const slug = slugify(name);
  const { checking, available } = useSlugCheck(slug);

  const create = async () => {
    setBusy(true);
    setError(null);
    const result = await dispatch(createCategory({ name: name.trim(), slug, description: '' }));
    setBusy(false);
    if (createCategory.fulfilled.match(result)) {
      void dispatch(fetchUserSelectedCategories());
      onCreated({ _id: result.payload._id, name: result.payload.name, slug: result.payload.slug });
    } else setError(result.payload ?? 'Failed to create category');
  };

  return (
    <div className="new-category" role="group" aria-label="New category">
      <label htmlFor="new-category-name">New category name</label>
      <input id="new-category-name" value={name} maxLength={50} onChange={(e) => setName(e.target.value)} aria-describedby="new-category-slug" />
      <SlugHint id="new-category-slug" slug={slug} checking={checking} available={available} />
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions form-actions--start">
        <button type="button" className="button button--small" disabled={available !== true || busy} onClick={() => void create()}>
          Create category
        </button>
        <button type="button" className="button button--small button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

interface PostDetailsFormProps {
  details: PostDetails;
  onChange: (changes: Partial<PostDetails>) => void;
  errors: FieldErrors;
  isAdmin: boolean;
  /** The post's current category (an edit), shown even if it is not among the user's. */
  currentCategory?: CategoryRef | null;
}

/** Title, thumbnail, category, tags, type, visibility, language, featured/pinned, and when to publish. */
export function PostDetailsForm({ details, onChange, errors, isAdmin, currentCategory }: PostDetailsFormProps) {
  const dispatch = useAppDispatch();
  const uid = useId();
  const { userSelectedCategories } = useAppSelector(selectCategories);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CategoryRef[]>([]);
  const [tagText, setTagText] = useState('');
  const [tagProblem, setTagProblem] = useState<string | null>(null);
  const [thumbError, setThumbError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  useEffect(() => {
    void dispatch(fetchUserSelectedCategories());
  }, [dispatch]);

  const options = [...userSelectedCategories, ...created, ...(currentCategory ? [currentCategory] : [])].filter(
    (c, i, all) => all.findIndex((x) => x._id === c._id) === i,
  );

  const pickThumbnail = async (file: File | undefined) => {
    if (!file) return;
    const result = await imageToDataUrl(file);
    if ('error' in result) setThumbError(result.error);
    else {
      setThumbError(null);
      onChange({ thumbnail: result.url });
    }
  };

  const commitTags = () => {
    if (!tagText.trim()) return;
    const { tags, problem } = addTags(details.tags, tagText);
    setTagProblem(problem);
    setTagText('');
    onChange({ tags });
  };
  const onTagKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commitTags();
    } else if (event.key === 'Backspace' && !tagText && details.tags.length > 0) {
      onChange({ tags: details.tags.slice(0, -1) });
    }
  };

  return (
    <div className="post-details">
      <div className="field">
        <label htmlFor="post-title">Title</label>
        <input
          id="post-title"
          value={details.title}
          maxLength={200}
          required
          aria-invalid={Boolean(errors.title)}
          aria-describedby={errors.title ? 'post-title-error' : undefined}
          onChange={(e) => onChange({ title: e.target.value })}
        />
        <FieldError id="post-title-error" message={errors.title} />
      </div>

      <div className="field">
        <span className="field__label" id={`${uid}-thumb`}>
          Thumbnail
        </span>
        {details.thumbnail ? (
          <div className="thumb-preview">
            <img src={details.thumbnail} alt="Thumbnail preview" />
            <button type="button" className="button button--small button--ghost" onClick={() => onChange({ thumbnail: null })}>
              Remove thumbnail
            </button>
          </div>
        ) : (
          <div
            className="drop-zone"
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              void pickThumbnail(e.dataTransfer.files?.[0]);
            }}
          >
            <button type="button" className="button button--small button--ghost" aria-describedby={`${uid}-thumb-hint`} onClick={() => fileInput.current?.click()}>
              Choose a thumbnail
            </button>
            <span className="muted small">or drop an image here</span>
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              className="visually-hidden"
              tabIndex={-1}
              aria-labelledby={`${uid}-thumb`}
              onChange={(e) => void pickThumbnail(e.target.files?.[0])}
            />
          </div>
        )}
        <small id={`${uid}-thumb-hint`} className="muted">
          {IMAGE_LIMIT_TEXT}
        </small>
        <FieldError id={`${uid}-thumb-error`} message={thumbError ?? errors.thumbnail} />
      </div>

      <div className="field">
        <label htmlFor="post-category">Category</label>
        <select
          id="post-category"
          value={details.category ?? ''}
          aria-invalid={Boolean(errors.category)}
          onChange={(e) => onChange({ category: e.target.value || null })}
        >
          <option value="">No category</option>
          {options.map((c) => (
            <option key={c._id} value={c._id}>
              {c.name}
            </option>
          ))}
        </select>
        {creating ? (
          <NewCategory
            onCancel={() => setCreating(false)}
            onCreated={(c) => {
              setCreated([...created, c]);
              setCreating(false);
              onChange({ category: c._id });
            }}
          />
        ) : (
          <button type="button" className="link-button" onClick={() => setCreating(true)}>
            Create a new category
          </button>
        )}
        <FieldError id={`${uid}-category-error`} message={errors.category} />
      </div>

      <div className="field">
        <label htmlFor="post-tags">Tags</label>
        <div className="chips">
          {details.tags.map((tag) => (
            <span key={tag} className="chip">
              #{tag}
              <button type="button" className="chip__remove" aria-label={`Remove tag ${tag}`} onClick={() => onChange({ tags: details.tags.filter((t) => t !== tag) })}>
                ×
              </button>
            </span>
          ))}
          <input
            id="post-tags"
            value={tagText}
            disabled={details.tags.length >= MAX_TAGS}
            placeholder={details.tags.length >= MAX_TAGS ? 'Tag limit reached' : 'Type a tag, then Enter'}
            aria-describedby={`${uid}-tags-hint`}
            onChange={(e) => setTagText(e.target.value)}
            onKeyDown={onTagKey}
            onBlur={commitTags}
          />
        </div>
        <small id={`${uid}-tags-hint`} className="muted">
          Lowercase, up to {MAX_TAGS} ({details.tags.length} used).
        </small>
        <FieldError id={`${uid}-tags-error`} message={tagProblem ?? errors.tags} />
      </div>

      <div className="field-row">
        <div className="field">
          <label htmlFor="post-type">Type</label>
          <select id="post-type" value={details.postType} onChange={(e) => onChange({ postType: e.target.value as PostDetails['postType'] })}>
            <option value="Article">Article</option>
            <option value="Blog">Blog</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="post-visibility">Visibility</label>
          <select id="post-visibility" value={details.visibility} onChange={(e) => onChange({ visibility: e.target.value as PostDetails['visibility'] })}>
            <option value="Public">Public</option>
            <option value="Private">Private</option>
            <option value="Unlisted">Unlisted</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="post-language">Language</label>
          <input id="post-language" value={details.language} maxLength={10} onChange={(e) => onChange({ language: e.target.value.trim().toLowerCase() || 'en' })} />
        </div>
      </div>

      <div className="field">
        <label htmlFor="post-audience">Who can read it</label>
        <select id="post-audience" aria-describedby="post-audience-hint" value={details.audience} onChange={(e) => onChange({ audience: e.target.value as PostDetails['audience'] })}>
          <option value="everyone">Everyone</option>
          <option value="subscribers">Subscribers only</option>
        </select>
        <small id="post-audience-hint" className="muted">
          Subscribers only: other readers see the title and the opening lines, and a way to subscribe.
        </small>
      </div>

      {isAdmin ? (
        <fieldset className="field checks">
          <legend>Placement (administrators)</legend>
          <label>
            <input type="checkbox" checked={details.isFeatured} onChange={(e) => onChange({ isFeatured: e.target.checked })} /> Featured
          </label>
          <label>
            <input type="checkbox" checked={details.isPinned} onChange={(e) => onChange({ isPinned: e.target.checked })} /> Pinned
          </label>
        </fieldset>
      ) : null}

      <fieldset className="field checks">
        <legend>When</legend>
        <label>
          <input type="radio" name="post-status" checked={details.status === 'draft'} onChange={() => onChange({ status: 'draft' })} /> Save as draft
        </label>
        <label>
          <input type="radio" name="post-status" checked={details.status === 'published'} onChange={() => onChange({ status: 'published' })} /> Publish now
        </label>
        <label>
          <input type="radio" name="post-status" checked={details.status === 'scheduled'} onChange={() => onChange({ status: 'scheduled' })} /> Schedule
        </label>
        {details.status === 'scheduled' ? (
          <div className="field">
            <label htmlFor="post-publish-at">Publish at ({zone})</label>
            <input
              id="post-publish-at"
              type="datetime-local"
              value={details.publishAt}
              aria-invalid={Boolean(errors.schedule)}
              onChange={(e) => onChange({ publishAt: e.target.value })}
            />
          </div>
        ) : null}
        <FieldError id={`${uid}-schedule-error`} message={errors.schedule} />
        {details.status !== 'draft' && details.visibility === 'Public' ? (
          <label>
            <input
              type="checkbox"
              data-testid="email-subscribers"
              checked={details.emailSubscribers}
              onChange={(e) => onChange({ emailSubscribers: e.target.checked })}
            />{' '}
            Email followers and subscribers when it is published
          </label>
        ) : null}
      </fieldset>
    </div>
  );
}

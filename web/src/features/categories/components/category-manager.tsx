/**
 * Category management (seed 000 §2 "tab=categories", §4 "Category status"): the user's selected
 * categories and every category to choose from, saved together (assign); creating a category
 * (name, slug with the live availability check, description), and editing or deleting the ones
 * the user created. Failures show the server's message or the 'Failed to ...' text.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { toast } from '@/lib/toast';
import type { Category } from '@/types/entities';
import {
  assignCategories,
  CATEGORY_FALLBACK,
  createCategory,
  deleteCategory,
  fetchCategories,
  fetchUserSelectedCategories,
  selectCategories,
  updateCategory,
} from '../categories-slice';
import { slugify, SlugHint, useSlugCheck } from './slug-field';

const MAX_NAME = 50;
const MAX_DESCRIPTION = 500;

function CategoryForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Category;
  submitLabel: string;
  onSubmit: (values: { name: string; slug: string; description: string }) => Promise<string | null>;
  onCancel?: () => void;
}) {
  const prefix = initial ? `edit-${initial._id}` : 'new';
  const [name, setName] = useState(initial?.name ?? '');
  const [slug, setSlug] = useState(initial?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(Boolean(initial));
  const [description, setDescription] = useState(initial?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const effectiveSlug = slugTouched ? slugify(slug) : slugify(name);
  // An unchanged slug of the category being edited is its own, not a taken one.
  const unchanged = initial !== undefined && effectiveSlug === initial.slug;
  const { checking, available } = useSlugCheck(effectiveSlug, { enabled: !unchanged });
  const slugOk = unchanged || available === true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !slugOk || busy) return;
    setBusy(true);
    setError(null);
    const problem = await onSubmit({ name: name.trim(), slug: effectiveSlug, description: description.trim() });
    setBusy(false);
    if (problem) setError(problem);
    else if (!initial) {
      setName('');
      setSlug('');
      setSlugTouched(false);
      setDescription('');
    }
  };

  return (
    <form className="form category-form" onSubmit={(e) => void submit(e)} aria-label={initial ? `Edit ${initial.name}` : 'New category'}>
      <div className="field">
        <label htmlFor={`${prefix}-name`}>Name</label>
        <input id={`${prefix}-name`} value={name} maxLength={MAX_NAME} required onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-slug`}>Slug</label>
        <input
          id={`${prefix}-slug`}
          value={slugTouched ? slug : slugify(name)}
          maxLength={60}
          aria-describedby={`${prefix}-slug-hint`}
          aria-invalid={available === false}
          onChange={(e) => {
            setSlugTouched(true);
            setSlug(e.target.value);
          }}
        />
        {unchanged ? (
          <small id={`${prefix}-slug-hint`} className="muted">
            The current address: /category/{effectiveSlug}
          </small>
        ) : (
          <SlugHint id={`${prefix}-slug-hint`} slug={effectiveSlug} checking={checking} available={available} />
        )}
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-description`}>Description</label>
        <textarea
          id={`${prefix}-description`}
          value={description}
          maxLength={MAX_DESCRIPTION}
          rows={2}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions form-actions--start">
        <button type="submit" className="button button--small" disabled={!name.trim() || !slugOk || busy}>
          {busy ? 'Saving...' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button--small button--ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

export function CategoryManager({ userId }: { userId: string }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectCategories);
  const isAdmin = useAppSelector((s) => s.auth.role === 'admin');
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const [saving, setSaving] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchCategories());
    void dispatch(fetchUserSelectedCategories());
  }, [dispatch]);

  const selectedIds = useMemo(() => new Set(state.userSelectedCategories.map((c) => c._id)), [state.userSelectedCategories]);
  const current = chosen ?? selectedIds;
  const dirty = chosen !== null && (chosen.size !== selectedIds.size || [...chosen].some((id) => !selectedIds.has(id)));
  const own = state.categories.filter((c) => c.createdBy === userId || (isAdmin && c.createdBy));

  const toggle = (id: string) => {
    const next = new Set(current);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  const save = async () => {
    setSaving(true);
    const result = await dispatch(assignCategories({ userId, categoryIds: [...current] }));
    setSaving(false);
    if (assignCategories.fulfilled.match(result)) {
      setChosen(null);
      toast.success('Your categories are saved.');
    } else toast.error(result.payload ?? CATEGORY_FALLBACK.assign);
  };

  const create = async (values: { name: string; slug: string; description: string }) => {
    const result = await dispatch(createCategory(values));
    if (createCategory.fulfilled.match(result)) {
      toast.success(`Category “${result.payload.name}” created.`);
      // A new category is one the user writes in: it joins their selection.
      setChosen(new Set([...current, result.payload._id]));
      return null;
    }
    return result.payload ?? CATEGORY_FALLBACK.create;
  };

  const update = async (id: string, values: { name: string; slug: string; description: string }) => {
    const result = await dispatch(updateCategory({ id, changes: values }));
    if (updateCategory.fulfilled.match(result)) {
      setEditing(null);
      toast.success('Category updated.');
      return null;
    }
    return result.payload ?? CATEGORY_FALLBACK.update;
  };

  const remove = async (category: Category) => {
    setConfirmDelete(null);
    const result = await dispatch(deleteCategory(category._id));
    if (deleteCategory.fulfilled.match(result)) {
      toast.success(`Category “${category.name}” deleted.`);
      if (chosen?.has(category._id)) {
        const next = new Set(chosen);
        next.delete(category._id);
        setChosen(next);
      }
    } else toast.error(result.payload ?? CATEGORY_FALLBACK.delete);
  };

  return (
    <div className="category-manager">
      <section aria-labelledby="my-categories-title" className="panel">
        <h2 id="my-categories-title" className="section-title">
          Your categories
        </h2>
        <p className="muted small">The categories you follow in the header menu and write in. Choose them, then save.</p>
        {state.status === 'loading' && state.categories.length === 0 ? (
          <p className="muted" role="status">
            Loading categories...
          </p>
        ) : null}
        {state.status === 'failed' ? (
          <div className="feed-state feed-state--error" role="alert">
            <span>{state.error ?? CATEGORY_FALLBACK.fetch}</span>
            <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchCategories())}>
              Try again
            </button>
          </div>
        ) : null}
        {state.userSelectedStatus === 'failed' ? (
          <p className="form-error" role="alert">
            {state.userSelectedError ?? CATEGORY_FALLBACK.fetchSelected}
          </p>
        ) : null}
        <fieldset className="pills pills--choice" aria-label="All categories" data-testid="category-choices">
          {state.categories.map((c) => (
            <label key={c._id} className={`pill ${current.has(c._id) ? 'pill--on' : ''}`}>
              <input type="checkbox" className="visually-hidden" checked={current.has(c._id)} onChange={() => toggle(c._id)} />
              {c.name}
              {c.createdBy ? (
                <span className="pill__star" aria-label="created by a user">
                  ★
                </span>
              ) : null}
            </label>
          ))}
        </fieldset>
        <div className="form-actions form-actions--start">
          <button type="button" className="button button--small" disabled={!dirty || saving} onClick={() => void save()}>
            {saving ? 'Saving...' : `Save selection (${current.size})`}
          </button>
          {dirty ? (
            <button type="button" className="button button--small button--ghost" onClick={() => setChosen(null)}>
              Undo changes
            </button>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="new-category-title" className="panel">
        <h2 id="new-category-title" className="section-title">
          Create a category
        </h2>
        <CategoryForm submitLabel="Create category" onSubmit={create} />
      </section>

      <section aria-labelledby="own-categories-title" className="panel">
        <h2 id="own-categories-title" className="section-title">
          {isAdmin ? 'Categories created by users' : 'Categories you created'}
        </h2>
        {own.length === 0 ? <p className="muted">{isAdmin ? 'None yet.' : 'You have not created a category yet.'}</p> : null}
        <ul className="own-categories">
          {own.map((c) => (
            <li key={c._id} className="own-categories__item" data-testid="own-category">
              {editing === c._id ? (
                <CategoryForm initial={c} submitLabel="Save" onSubmit={(values) => update(c._id, values)} onCancel={() => setEditing(null)} />
              ) : (
                <>
                  <div>
                    <strong>{c.name}</strong> <span className="muted small">/category/{c.slug}</span>
                    {c.description ? <p className="small muted">{c.description}</p> : null}
                  </div>
                  {confirmDelete === c._id ? (
                    <div className="form-actions form-actions--start" role="group" aria-label={`Delete ${c.name}?`}>
                      <span className="small">Delete “{c.name}”? Its posts stay, without a category.</span>
                      <button type="button" className="button button--small button--danger" onClick={() => void remove(c)}>
                        Delete
                      </button>
                      <button type="button" className="button button--small button--ghost" onClick={() => setConfirmDelete(null)}>
                        Cancel
                      </button>
                    </div>
                  ) : (
                    <div className="form-actions form-actions--start">
                      <button type="button" className="button button--small button--ghost" onClick={() => setEditing(c._id)}>
                        Edit<span className="visually-hidden"> {c.name}</span>
                      </button>
                      <button type="button" className="button button--small button--ghost" onClick={() => setConfirmDelete(c._id)}>
                        Delete<span className="visually-hidden"> {c.name}</span>
                      </button>
                    </div>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

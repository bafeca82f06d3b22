import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { AnimatedLogo } from '@/components/animated-logo';
import { FormError } from '@/components/form-field';
import { assignCategories, fetchCategories, fetchUserSelectedCategories, selectCategories } from '../categories-slice';

/**
 * After signup and from the settings: pick the categories to follow, saved with
 * `POST /category/users/{userId}/categories`, then on to the main page. Guests are sent to log in
 * by the route guard.
 */
export function SelectCategoryPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((state) => state.auth.user);
  const { categories, status, error, userSelectedCategories, userSelectedStatus } = useAppSelector(selectCategories);
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchCategories());
    void dispatch(fetchUserSelectedCategories());
  }, [dispatch]);

  // Start from the current selection once it is known.
  useEffect(() => {
    if (chosen === null && userSelectedStatus === 'succeeded') setChosen(new Set(userSelectedCategories.map((c) => c._id)));
  }, [chosen, userSelectedStatus, userSelectedCategories]);

  const picked = chosen ?? new Set<string>();
  const toggle = (id: string) => {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  const save = async () => {
    if (!user) return;
    setSaving(true);
    setSaveError(null);
    const result = await dispatch(assignCategories({ userId: user._id, categoryIds: [...picked] }));
    setSaving(false);
    if (assignCategories.fulfilled.match(result)) navigate('/', { replace: true });
    else setSaveError(result.payload ?? 'Failed to assign categories');
  };

  return (
    <main className="auth-screen">
      <section className="auth-card auth-card--wide" aria-labelledby="select-category-title">
        <div className="auth-card__logo">
          <AnimatedLogo />
        </div>
        <h1 id="select-category-title" className="auth-card__title">
          Choose what you like to read
        </h1>
        <p className="muted">Pick the categories you care about. You can change them later in Category Management.</p>
        {status === 'loading' && categories.length === 0 ? <p role="status">Loading categories...</p> : null}
        {status === 'failed' ? <FormError message={error ?? 'Failed to fetch categories'} /> : null}
        {status === 'succeeded' && categories.length === 0 ? <p className="muted">No categories exist yet.</p> : null}
        <div className="pills pills--choice" role="group" aria-label="Categories">
          {categories.map((c) => (
            <button key={c._id} type="button" className={`pill ${picked.has(c._id) ? 'pill--on' : ''}`} aria-pressed={picked.has(c._id)} onClick={() => toggle(c._id)}>
              {c.name}
            </button>
          ))}
        </div>
        <FormError message={saveError} />
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={() => navigate('/', { replace: true })}>
            Skip for now
          </button>
          <button type="button" className="button" disabled={saving} onClick={() => void save()}>
            {saving ? 'Saving...' : `Save ${picked.size > 0 ? `(${picked.size})` : ''}`.trim()}
          </button>
        </div>
      </section>
    </main>
  );
}

export default SelectCategoryPage;

import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchCategories, seedCategories, selectCategories } from '@/features/categories';

/** Every category, and the default set added where missing (`POST /category/seed`). */
export function CategoriesSection() {
  const dispatch = useAppDispatch();
  const { categories, status, error } = useAppSelector(selectCategories);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    void dispatch(fetchCategories());
  }, [dispatch]);

  const seed = async () => {
    setBusy(true);
    setOutcome(null);
    const r = await dispatch(seedCategories());
    setBusy(false);
    setOutcome(seedCategories.fulfilled.match(r) ? { ok: true, text: r.payload.message } : { ok: false, text: r.payload ?? 'Failed to seed categories' });
  };

  return (
    <>
      <div className="panel categories-seed">
        <h3>Default categories</h3>
        <p className="muted">Adds the standard categories (Technology, Programming, Science and the rest) that are not there yet. Categories that exist are left as they are.</p>
        <button type="button" className="button" disabled={busy} onClick={() => void seed()}>
          {busy ? 'Adding...' : 'Add the default categories'}
        </button>
        {outcome ? (
          <p className={outcome.ok ? 'form-status' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
            {outcome.text}
          </p>
        ) : null}
      </div>
      <h3>All categories ({categories.length})</h3>
      {status === 'loading' && categories.length === 0 ? <p role="status">Loading...</p> : null}
      {status === 'failed' && error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {status === 'succeeded' && categories.length === 0 ? <p className="muted">No categories yet.</p> : null}
      <ul className="pills" aria-label="Categories">
        {categories.map((c) => (
          <li key={c._id} className="pill">
            {c.name}
          </li>
        ))}
      </ul>
    </>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { useClickOutside } from '@/components/use-click-outside';
import { toast } from '@/lib/toast';
import type { Category } from '@/types/entities';
import { categorySelected, fetchCategories, fetchUserSelectedCategories, selectCategories } from '../categories-slice';

export const GUEST_CATEGORY_PREVIEW = 5;
export const CATEGORY_MESSAGES = {
  loading: 'Loading categories...',
  failed: 'Failed to load categories',
  noneSelected: 'No categories selected. Visit Category Management to add some!',
  logInToView: 'Please log in to view your categories.',
  logInForAll: 'Log in to see all your selected categories!',
  toast: 'Unable to load categories. Please try again later.',
} as const;

export function CategoriesDropdown() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { isAuthenticated, user } = useAppSelector((state) => state.auth);
  const { categories, userSelectedCategories, status: allStatus, userSelectedStatus } = useAppSelector(selectCategories);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);

  useEffect(() => {
    if (!open) return;
    const request = isAuthenticated ? dispatch(fetchUserSelectedCategories()) : dispatch(fetchCategories());
    void request.then((result) => {
      if (result.meta.requestStatus === 'rejected' && !('condition' in result.meta && result.meta.condition)) {
        toast.error(CATEGORY_MESSAGES.toast);
      }
    });
  }, [open, isAuthenticated, dispatch]);

  const list = isAuthenticated ? userSelectedCategories : categories.slice(0, GUEST_CATEGORY_PREVIEW);
  const status = isAuthenticated ? userSelectedStatus : allStatus;
  const choose = (category: Category) => {
    dispatch(categorySelected(category));
    setOpen(false);
    navigate(`/category/${category.slug}`);
  };

  return (
    <div className="menu-anchor" ref={ref}>
      <button type="button" className="button button--ghost button--small" aria-expanded={open} aria-haspopup="true" onClick={() => setOpen(!open)}>
        Categories
      </button>
      {open ? (
        <div className="dropdown categories-dropdown" role="region" aria-label="Categories">
          {status === 'loading' ? <p className="dropdown__state">{CATEGORY_MESSAGES.loading}</p> : null}
          {status === 'failed' ? (
            <p className="dropdown__state dropdown__state--error" role="alert">
              {CATEGORY_MESSAGES.failed}
            </p>
          ) : null}
          {status === 'succeeded' && isAuthenticated && list.length === 0 ? (
            <p className="dropdown__state">{CATEGORY_MESSAGES.noneSelected}</p>
          ) : null}
          {status === 'succeeded' && !isAuthenticated && list.length === 0 ? (
            <p className="dropdown__state">{CATEGORY_MESSAGES.logInToView}</p>
          ) : null}
          <div className="pills">
            {status !== 'loading' &&
              list.map((c) => (
                <button key={c._id} type="button" className="pill" onClick={() => choose(c)}>
                  {c.name}
                  {c.createdBy ? <span className="pill__star" aria-label="custom category"> ★</span> : null}
                </button>
              ))}
          </div>
          {!isAuthenticated && categories.length > GUEST_CATEGORY_PREVIEW ? (
            <p className="dropdown__state">{CATEGORY_MESSAGES.logInForAll}</p>
          ) : null}
          {isAuthenticated && user ? (
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                setOpen(false);
                navigate(`/author-profile/${user._id}?tab=categories`);
              }}
            >
              Manage Categories
            </button>
          ) : null}
          {isAuthenticated ? (
            <Link to="/select-category" className="dropdown__link" onClick={() => setOpen(false)}>
              Choose the categories you follow
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { checkSlug, selectCategories } from '../categories-slice';

/** Wait after the last keystroke before the slug is checked. */
export const SLUG_CHECK_DELAY_MS = 400;
/** Shortest slug worth checking. */
export const MIN_SLUG_LENGTH = 2;

/** A category slug from its name: lowercase words of letters and digits joined by hyphens. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/**
 * Checks a slug live (`/category/check-slug`, 400 ms after the last change) and says whether it
 * is available: true, false, or null while unknown (too short, checking, or not yet checked).
 */
export function useSlugCheck(slug: string, { enabled = true }: { enabled?: boolean } = {}) {
  const dispatch = useAppDispatch();
  const { slugCheck } = useAppSelector(selectCategories);
  const checkable = enabled && slug.length >= MIN_SLUG_LENGTH;
  useEffect(() => {
    if (!checkable) return;
    const timer = setTimeout(() => void dispatch(checkSlug(slug)), SLUG_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dispatch, slug, checkable]);
  const current = slugCheck.slug === slug;
  return {
    checking: checkable && (!current || slugCheck.loading),
    available: checkable && current && !slugCheck.loading ? slugCheck.isAvailable : null,
  };
}

/** The line under a slug field: what the check says. */
export function SlugHint({ id, slug, checking, available }: { id: string; slug: string; checking: boolean; available: boolean | null }) {
  return (
    <small id={id} className={`muted ${available === false ? 'slug-hint--taken' : ''}`} aria-live="polite" data-testid="slug-hint">
      {slug.length < MIN_SLUG_LENGTH
        ? 'At least 2 letters or digits.'
        : checking
          ? `Checking “${slug}”…`
          : available === false
            ? `“${slug}” is unavailable (taken or not allowed).`
            : available
              ? `“${slug}” is available.`
              : `Address: /category/${slug}`}
    </small>
  );
}

import type { AppDispatch } from '@/app/store';
import { fetchUserSelectedCategories } from './categories-slice';

/**
 * Where someone goes after signing in with Google: where they came from, or, when they came
 * from nowhere in particular and have chosen no category yet (a new account), /select-category,
 * as an email sign-up does.
 */
export async function landingAfterSignIn(dispatch: AppDispatch, target: string): Promise<string> {
  if (target !== '/') return target;
  const result = await dispatch(fetchUserSelectedCategories());
  if (fetchUserSelectedCategories.fulfilled.match(result) && result.payload.length === 0) return '/select-category';
  return target;
}

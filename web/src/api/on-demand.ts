/**
 * The generated endpoints for code in a reader's first load (a form or a button on the post or
 * author page): their module, and RTK Query with it, loads on the first call instead of with the
 * page. Elsewhere, import the hooks from `@/api/endpoints`.
 *
 *   const api = await loadApi();
 *   await dispatch(api.endpoints.postNewsletterByAuthorIdSubscribe.initiate(arg, { track: false })).unwrap();
 */
export function loadApi() {
  return import('./endpoints').then((module) => module.api);
}

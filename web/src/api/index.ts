/**
 * The API's types, generated from the server's OpenAPI document (src/api/openapi.json →
 * schema.d.ts by scripts/api-types.mjs; `npm run api:types` refreshes both). Wire shapes are
 * aliases of these; nothing here is written by hand.
 */
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

/** The document's named schemas (`components.schemas`). */
export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON body of an operation's 200 answer, for answers without a named schema. */
export type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

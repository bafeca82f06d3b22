import { lazy, type ComponentType } from 'react';
import { PageLoadError } from '@/components/error-panel';

/**
 * A page module loaded on demand. If the module fails to load, the page becomes the error panel
 * (Reload Page, and an automatic reload after 1.5 s).
 */
export function lazyPage(factory: () => Promise<{ default: ComponentType }>): ComponentType {
  return lazy(() =>
    factory().catch((error: unknown) => {
      console.error('Error loading component', error);
      return { default: () => <PageLoadError error={error} /> };
    }),
  );
}

/** For modules that export several pages by name. */
export function lazyNamed<M extends Record<string, unknown>>(factory: () => Promise<M>, name: keyof M): ComponentType {
  return lazyPage(() => factory().then((module) => ({ default: module[name] as ComponentType })));
}

import type { ImageMeta, ImageVariant } from '@/types/entities';

/** `sizes` of a picture as wide as the article column (full width on a phone). */
export const ARTICLE_SIZES = '(max-width: 760px) 100vw, 720px';
/** `sizes` of a post card's thumbnail in a list. */
export const CARD_SIZES = '(max-width: 640px) 100vw, (max-width: 1024px) 50vw, 400px';

const WEBP = 'image/webp';
/** React 18 knows no `fetchPriority` prop: the attribute is written as the DOM spells it. */
const FETCH_FIRST = { fetchpriority: 'high' } as Record<string, string>;

/**
 * The `srcset` of a picture's variants of one content type, narrowest first. With `withOriginal`
 * the original closes the list at its own width (only when there are smaller variants to choose
 * from); the server's pages write the same list (`src/pages/picture.rs`).
 */
export function srcsetOf(meta: ImageMeta, type: string, withOriginal: boolean): string {
  const variants = meta.variants ?? [];
  const parts = variants.filter((v) => v.type === type && v.width < meta.width).map((v) => `${v.src} ${v.width}w`);
  const fullVariant = variants.find((v) => v.type === type && v.width === meta.width)?.src;
  const full = fullVariant ?? (withOriginal ? meta.src : undefined);
  if (full && (parts.length > 0 || !withOriginal)) parts.push(`${full} ${meta.width}w`);
  return parts.join(', ');
}

/**
 * The size and variants an Editor.js image block carries beside its address (`file.width`,
 * `file.height`, `file.variants`, written by the server when the post was saved).
 */
export function blockImageMeta(file: unknown, src: string): ImageMeta | null {
  if (!file || typeof file !== 'object') return null;
  const f = file as { width?: unknown; height?: unknown; variants?: unknown };
  if (typeof f.width !== 'number' || typeof f.height !== 'number') return null;
  const variants = Array.isArray(f.variants)
    ? (f.variants as ImageVariant[]).filter(
        (v) => v && typeof v.src === 'string' && v.src.startsWith('/media/') && typeof v.width === 'number' && typeof v.height === 'number' && typeof v.type === 'string',
      )
    : [];
  const ext = src.split('.').pop()?.toLowerCase();
  const type = ext === 'png' ? 'image/png' : ext === 'jpg' ? 'image/jpeg' : ext === 'webp' ? WEBP : ext === 'gif' ? 'image/gif' : '';
  return { src, width: f.width, height: f.height, type, variants };
}

export interface ResponsiveImageProps {
  src: string;
  alt: string;
  /** The picture's size and variants, when the server knows them. */
  meta?: ImageMeta | null;
  /** The layout's width for the picture (`ARTICLE_SIZES`, `CARD_SIZES`...). */
  sizes?: string;
  /** The page's main picture: fetched first and never lazily. */
  priority?: boolean;
  className?: string;
}

/**
 * The one way the app draws an uploaded picture: a `<picture>` offering the WebP variants and
 * the original format's variants (`srcset` + `sizes`), with `width`/`height` reserving its space,
 * `decoding="async"`, and `loading="lazy"` unless it is the page's main picture
 * (`fetchpriority="high"`). Pictures with no known size (web addresses, older uploads) are a plain
 * lazy `<img>`.
 */
export function ResponsiveImage({ src, alt, meta, sizes = ARTICLE_SIZES, priority = false, className }: ResponsiveImageProps) {
  const m = meta && meta.src === src ? meta : null;
  const own = m ? srcsetOf(m, m.type, true) : '';
  const webp = m && m.type !== WEBP ? srcsetOf(m, WEBP, false) : '';
  const img = (
    <img
      src={src}
      alt={alt}
      className={className}
      srcSet={own || undefined}
      sizes={own ? sizes : undefined}
      width={m?.width}
      height={m?.height}
      loading={priority ? 'eager' : 'lazy'}
      {...(priority ? FETCH_FIRST : undefined)}
      decoding="async"
    />
  );
  if (!webp) return img;
  return (
    <picture>
      <source type={WEBP} srcSet={webp} sizes={sizes} />
      {img}
    </picture>
  );
}

import { render } from '@testing-library/react';
import type { ImageMeta } from '@/types/entities';
import { ARTICLE_SIZES, blockImageMeta, CARD_SIZES, ResponsiveImage, srcsetOf } from './responsive-image';

const H = '0123456789abcdef0123456789abcdef';

function meta(width: number, height: number, ext: 'png' | 'jpg' | 'webp'): ImageMeta {
  const type = ext === 'png' ? 'image/png' : ext === 'jpg' ? 'image/jpeg' : 'image/webp';
  const variants = [];
  for (const w of [400, 800, 1600].filter((x) => x < width)) {
    const h = Math.max(1, Math.round((height * w) / width));
    variants.push({ src: `/media/${H}-${w}.${ext}`, width: w, height: h, type });
    if (ext !== 'webp') variants.push({ src: `/media/${H}-${w}.webp`, width: w, height: h, type: 'image/webp' });
  }
  if (ext !== 'webp' && width <= 1600) variants.push({ src: `/media/${H}-${width}.webp`, width, height, type: 'image/webp' });
  return { src: `/media/${H}.${ext}`, width, height, type, variants };
}

describe('ResponsiveImage', () => {
  it('offers the WebP variants in a source and the original format in the img, with its size', () => {
    const m = meta(2000, 1000, 'png');
    const { container } = render(<ResponsiveImage src={m.src} alt="A cat" meta={m} />);
    const source = container.querySelector('picture > source');
    expect(source).toHaveAttribute('type', 'image/webp');
    expect(source).toHaveAttribute('srcset', `/media/${H}-400.webp 400w, /media/${H}-800.webp 800w, /media/${H}-1600.webp 1600w`);
    expect(source).toHaveAttribute('sizes', ARTICLE_SIZES);
    const img = container.querySelector('picture > img')!;
    expect(img).toHaveAttribute('src', m.src);
    expect(img).toHaveAttribute('alt', 'A cat');
    expect(img).toHaveAttribute('srcset', `/media/${H}-400.png 400w, /media/${H}-800.png 800w, /media/${H}-1600.png 1600w, /media/${H}.png 2000w`);
    expect(img).toHaveAttribute('sizes', ARTICLE_SIZES);
    expect(img).toHaveAttribute('width', '2000');
    expect(img).toHaveAttribute('height', '1000');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('decoding', 'async');
    expect(img).not.toHaveAttribute('fetchpriority');
  });

  it('fetches the main picture first and never lazily', () => {
    const m = meta(1000, 500, 'jpg');
    const { container } = render(<ResponsiveImage src={m.src} alt="" meta={m} priority sizes={CARD_SIZES} className="thumb" />);
    const img = container.querySelector('img')!;
    expect(img).toHaveAttribute('fetchpriority', 'high');
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveClass('thumb');
    expect(container.querySelector('source')).toHaveAttribute('srcset', `/media/${H}-400.webp 400w, /media/${H}-800.webp 800w, /media/${H}-1000.webp 1000w`);
    expect(container.querySelector('source')).toHaveAttribute('sizes', CARD_SIZES);
  });

  it('draws a picture of unknown size, or with metadata of another picture, as a plain lazy img', () => {
    const m = meta(1000, 500, 'jpg');
    const { container } = render(<ResponsiveImage src="https://example.com/a.png" alt="x" meta={m} />);
    expect(container.querySelector('picture')).toBeNull();
    const img = container.querySelector('img')!;
    expect(img).not.toHaveAttribute('width');
    expect(img).not.toHaveAttribute('srcset');
    expect(img).toHaveAttribute('loading', 'lazy');
  });

  it('a WebP original needs no source; a small one no srcset', () => {
    const big = meta(2000, 1000, 'webp');
    expect(srcsetOf(big, 'image/webp', true)).toBe(`/media/${H}-400.webp 400w, /media/${H}-800.webp 800w, /media/${H}-1600.webp 1600w, /media/${H}.webp 2000w`);
    const { container } = render(<ResponsiveImage src={big.src} alt="" meta={big} />);
    expect(container.querySelector('picture')).toBeNull();
    const small = meta(300, 200, 'webp');
    const { container: c2 } = render(<ResponsiveImage src={small.src} alt="" meta={small} />);
    expect(c2.querySelector('img')).not.toHaveAttribute('srcset');
    expect(c2.querySelector('img')).toHaveAttribute('width', '300');
  });

  it('reads an image block’s size and keeps only stored variants', () => {
    const src = `/media/${H}.png`;
    const got = blockImageMeta(
      { url: src, width: 900, height: 600, variants: [{ src: `/media/${H}-400.webp`, width: 400, height: 267, type: 'image/webp' }, { src: 'javascript:alert(1)', width: 1, height: 1, type: 'image/webp' }] },
      src,
    );
    expect(got).toEqual({ src, width: 900, height: 600, type: 'image/png', variants: [{ src: `/media/${H}-400.webp`, width: 400, height: 267, type: 'image/webp' }] });
    expect(blockImageMeta({ url: src }, src)).toBeNull();
    expect(blockImageMeta(undefined, src)).toBeNull();
  });
});

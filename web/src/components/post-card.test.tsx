import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import type { Post } from '@/types/entities';
import { cardExcerpt, PostCard } from './post-card';

describe('card excerpts', () => {
  it('drop the title when the post opens with a header equal to it', () => {
    expect(cardExcerpt('Hello world', 'Hello world The first paragraph.')).toBe('The first paragraph.');
    expect(cardExcerpt('Hello world', 'hello   WORLD: the first paragraph.')).toBe('the first paragraph.');
    expect(cardExcerpt('Hello world', 'Hello world')).toBe('');
  });

  it('keep text that only begins like the title, or does not repeat it', () => {
    expect(cardExcerpt('Hello world', 'Hello worldwide readers')).toBe('Hello worldwide readers');
    expect(cardExcerpt('Hello world', 'Another start. Hello world')).toBe('Another start. Hello world');
    expect(cardExcerpt('', 'Text')).toBe('Text');
    expect(cardExcerpt('T', undefined)).toBe('');
  });

  it('a card shows the title once', () => {
    const post = { _id: 'p1', slug: 'hello-world', title: 'Hello world', excerpt: 'Hello world The first paragraph.', createdAt: '2024-01-01T00:00:00Z' } as Post;
    const { container } = renderWithProviders(<PostCard post={post} />);
    expect(screen.getByRole('heading', { name: 'Hello world' })).toBeInTheDocument();
    expect(container.querySelector('.post-card__excerpt')).toHaveTextContent(/^The first paragraph\.$/);
    expect(container.textContent?.match(/Hello world/g)).toHaveLength(1);
  });
});

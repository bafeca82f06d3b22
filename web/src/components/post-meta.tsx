import { Link } from 'react-router-dom';
import type { CategoryRef } from '@/types/entities';

export function CategoryPill({ category }: { category: CategoryRef | null | undefined }) {
  if (!category) return null;
  return (
    <Link to={`/category/${encodeURIComponent(category.slug)}`} className="category-pill">
      {category.name}
    </Link>
  );
}

export function TagList({ tags, label = 'Tags' }: { tags: string[] | null | undefined; label?: string }) {
  if (!tags || tags.length === 0) return null;
  return (
    <ul className="tag-list" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={`/tag/${encodeURIComponent(tag)}`} className="tag">
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

import { useParams } from 'react-router-dom';
import { PlaceholderPage } from '@/components/page';

export function CreatePostPage() {
  return <PlaceholderPage title="Write a post" description="The post editor (content blocks, polls, category, tags and visibility) opens here." />;
}

export function EditPostPage() {
  const { slug } = useParams();
  return <PlaceholderPage title="Edit post" description={`The post editor for “${slug}” opens here.`} />;
}

export function DeletePostPage() {
  const { id } = useParams();
  return <PlaceholderPage title="Delete post" description={`Confirmation to delete post ${id} appears here.`} />;
}

export function CategoryPage() {
  const { category } = useParams();
  return <PlaceholderPage title={`Category: ${category}`} description="Posts in this category are listed here." />;
}

export function TagPage() {
  const { tag } = useParams();
  return <PlaceholderPage title={`#${tag}`} description="Posts with this tag are listed here." />;
}

export function BookmarkPage() {
  return <PlaceholderPage title="Bookmarks" description="Your bookmarked posts are listed here." />;
}

import { PostEditor } from '../components/post-editor';
import { emptyDetails } from '../post-draft';

/** /createPost: a new post. */
export default function CreatePostPage() {
  return <PostEditor draftName="new" initialDetails={emptyDetails()} initialBlocks={[]} heading="Write a post" />;
}

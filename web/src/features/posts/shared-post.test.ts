// A post read again while shown keeps the objects of what did not change.
import { testPost } from '@/test/fixtures';
import { sharedWith } from './shared-post';

describe('sharedWith', () => {
  const shown = testPost({ _id: 'p1', slug: 'hello', title: 'Hello', views: 8, blocks: [{ id: 'b1', type: 'paragraph', data: { text: 'Words' } }] });

  it('keeps the shown post when nothing changed', () => {
    expect(sharedWith(shown, structuredClone(shown))).toBe(shown);
  });

  it('takes what changed and keeps the objects of the rest', () => {
    const next = { ...structuredClone(shown), views: 9 };
    const merged = sharedWith(shown, next);
    expect(merged).not.toBe(shown);
    expect(merged.views).toBe(9);
    expect(merged.blocks).toBe(shown.blocks);
  });

  it('takes another post as it is', () => {
    const other = { ...structuredClone(shown), _id: 'p2' };
    expect(sharedWith(shown, other)).toBe(other);
    expect(sharedWith(null, other)).toBe(other);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { CommentsSection } from './comments-section';

const comment = {
  _id: 'c1',
  post: 'p1',
  content: 'First!',
  parent: null,
  user: testUser._id,
  userData: { _id: testUser._id, name: testUser.name },
  createdAt: '2024-01-01T00:00:00Z',
  reactions: {},
  replies: [],
  repliesCount: 0,
  isFlagged: false,
  blocked: false,
  edited: false,
};

describe('deleting a comment', () => {
  it("asks with the app's dialog (not the browser's confirm) and deletes only on confirmation", async () => {
    mockApi.on('GET', '/comment/all-comments/p1', { body: { comments: [comment] } });
    mockApi.on('DELETE', '/comment/delete/c1', { body: { message: 'Comment deleted', postId: 'p1' } });
    const confirmSpy = vi.spyOn(window, 'confirm');
    const user = userEvent.setup();
    renderWithProviders(<CommentsSection postId="p1" postAuthorId="someone" />, { preloadedState: { auth: signedInAuth() } });
    const deleteButton = await screen.findByRole('button', { name: 'Delete' });
    await user.click(deleteButton);
    const dialog = screen.getByRole('dialog', { name: 'Delete this comment?' });
    expect(dialog).toHaveTextContent('The comment and every reply under it will be deleted. This cannot be undone.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleteButton).toHaveFocus();
    expect(mockApi.calls('DELETE', '/comment/delete/c1')).toHaveLength(0);
    await user.click(deleteButton);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => expect(mockApi.calls('DELETE', '/comment/delete/c1')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('First!')).not.toBeInTheDocument());
    expect(confirmSpy).not.toHaveBeenCalled();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { durationLabel, ReadingDetailsDialog } from './reading-details-dialog';

const post = { _id: 'p1', title: 'Hello world' };

describe('reading details', () => {
  it('formats seconds', () => {
    expect(durationLabel(42)).toBe('42 s');
    expect(durationLabel(185)).toBe('3 min 05 s');
    expect(durationLabel(3720)).toBe('1 h 02 min');
  });

  it('lists who read the post for how long (GET /admin/reading-details/{postId})', async () => {
    mockApi.on('GET', '/admin/reading-details/p1', {
      body: {
        postId: 'p1',
        title: 'Hello world',
        totalTimeSpent: 300,
        averageTimeSpent: 150,
        readers: 2,
        sessions: 3,
        details: [
          { reader: 'u2', guest: false, user: { _id: 'u2', name: 'Bea', email: 'bea@example.com' }, timeSpent: 240, sessions: 2, lastReadAt: '2024-05-01T10:00:00Z' },
          { reader: 'g1', guest: true, user: null, timeSpent: 60, sessions: 1, lastReadAt: '2024-05-02T10:00:00Z' },
        ],
      },
    });
    renderWithProviders(<ReadingDetailsDialog post={post} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Reading details: Hello world' })).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Bea (bea@example.com)' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Guest' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '4 min 00 s' })).toBeInTheDocument();
    expect(screen.getByText('5 min 00 s')).toBeInTheDocument();
  });

  it("says 'Failed to fetch reading details' and tries again", async () => {
    mockApi.on('GET', '/admin/reading-details/p1', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<ReadingDetailsDialog post={post} onClose={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch reading details');
    mockApi.on('GET', '/admin/reading-details/p1', { body: { postId: 'p1', title: 'Hello world', totalTimeSpent: 0, averageTimeSpent: 0, readers: 0, sessions: 0, details: [] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Nobody has read this post yet.')).toBeInTheDocument();
  });
});

// A subscriber's private feed on the plans page: shown, replaced and removed through the API.
import { fireEvent, screen } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { PrivateFeed } from './private-feed';

describe('the private feed panel', () => {
  it('shows the address, gives a new one, and removes the feed', async () => {
    mockApi.on('GET', '/subscription/private-feed/a1', { body: { url: 'http://x/feeds/private/r/a1/one.xml' } });
    mockApi.on('POST', '/subscription/private-feed/a1/reset', { body: { url: 'http://x/feeds/private/r/a1/two.xml' } });
    mockApi.on('DELETE', '/subscription/private-feed/a1', { body: { message: 'Private feed removed' } });
    renderWithProviders(<PrivateFeed authorId="a1" />);
    expect(await screen.findByDisplayValue('http://x/feeds/private/r/a1/one.xml')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'New address' }));
    expect(await screen.findByDisplayValue('http://x/feeds/private/r/a1/two.xml')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove feed' }));
    expect(await screen.findByText('Your private feed is removed.')).toBeInTheDocument();
    expect(mockApi.calls('DELETE', '/subscription/private-feed/a1')).toHaveLength(1);
  });

  it("says why when there is no feed to give (the server's message)", async () => {
    mockApi.on('GET', '/subscription/private-feed/a2', {
      status: 403,
      body: { message: 'A private feed is for readers with an active subscription to this author' },
    });
    renderWithProviders(<PrivateFeed authorId="a2" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('A private feed is for readers with an active subscription to this author');
  });
});

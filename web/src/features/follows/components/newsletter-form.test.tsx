// The guests' email form on post and author pages: its endpoint loads when the form is sent.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { NEWSLETTER_FALLBACK, NewsletterForm } from './newsletter-form';

describe('the newsletter form', () => {
  it('subscribes the address (POST /newsletter/{authorId}/subscribe) and says to check the inbox', async () => {
    mockApi.on('POST', '/newsletter/a%2F1/subscribe', { body: { message: 'Check your inbox to confirm your subscription.' } });
    const user = userEvent.setup();
    renderWithProviders(<NewsletterForm authorId="a/1" authorName="Grace" />);
    expect(screen.getByRole('heading', { name: 'Get new posts from Grace by email' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Your email address'), ' reader@example.com ');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Check your inbox to confirm your subscription.');
    expect(mockApi.calls('POST', '/newsletter/a%2F1/subscribe')[0].body).toEqual({ email: 'reader@example.com' });
    expect(screen.getByLabelText('Your email address')).toHaveValue('');
  });

  it("says 'Failed to subscribe' when the server gives no message", async () => {
    mockApi.on('POST', '/newsletter/a1/subscribe', { status: 500 });
    const user = userEvent.setup();
    renderWithProviders(<NewsletterForm authorId="a1" authorName="Grace" />);
    await user.type(screen.getByLabelText('Your email address'), 'reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(NEWSLETTER_FALLBACK);
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { mockAppStartup, renderApp, signedInAuth } from '@/test/render';

const report = {
  _id: 'r1',
  postId: 'p1',
  postTitle: 'Borrowed words',
  postSlug: 'borrowed-words',
  reason: 'copyright',
  isReviewed: true,
  forwardedToAuthor: true,
  isAcknowledged: false,
  acknowledgedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
};

describe('the acknowledgement page', () => {
  it("shows the author the report and the administrators' messages, and acknowledges it", async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/admin/reports/r1', { body: { report, messages: [{ _id: 'n1', content: 'About your post: Please credit the source.', read: false, createdAt: '2026-01-02T00:00:00Z' }] } });
    mockApi.on('POST', '/admin/acknowledge-report/r1', { body: { message: 'Report acknowledged', report: { ...report, isAcknowledged: true, acknowledgedAt: '2026-01-03T00:00:00Z' } } });
    renderApp('/acknowledge/r1', { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('heading', { level: 1, name: 'A report on your post' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Borrowed words' })).toHaveAttribute('href', '/post/borrowed-words');
    expect(screen.getByText('About your post: Please credit the source.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Acknowledge the report' }));
    expect(await screen.findByText('Report acknowledged')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Acknowledge the report' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal to someone who may not read the report", async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/admin/reports/r1', { status: 403, body: { message: 'Only the author of the reported post or an administrator can read this report' } });
    renderApp('/acknowledge/r1', { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('Only the author of the reported post or an administrator can read this report')).toBeInTheDocument();
  });
});

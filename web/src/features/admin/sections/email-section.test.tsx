import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { EmailSection } from './email-section';

const admin = () => ({ auth: signedInAuth({ user: testAdmin, role: 'admin' }) });
const failedLog = { _id: 'l1', email: 'ada@example.com', type: 'welcome', subject: 'Welcome', success: false, stopEmailAttempts: false, attempts: 1, retries: 0, error: 'refused', createdAt: '2026-01-01T00:00:00Z' };

describe('the Email section', () => {
  it('lists the logs in the shared table and asks in a dialog before retrying a type’s failed emails', async () => {
    mockApi.on('GET', '/admin/all-email-statuses', { body: { logs: [failedLog], total: 1, totalPages: 1, page: 1 } });
    mockApi.on('GET', '/admin/email-status', { body: { logs: [failedLog], total: 1, totalPages: 1, page: 1 } });
    mockApi.on('GET', '/dailyMail/daily-post-report', { body: { logs: [], total: 0, totalPages: 0, page: 1 } });
    mockApi.on('POST', '/admin/retry-failed-emails', { body: { message: 'Retried 1 email', results: [{ ...failedLog, success: true, error: null }] } });
    const user = userEvent.setup();
    renderWithProviders(<EmailSection />, { preloadedState: admin() });
    const row = (await screen.findByText('ada@example.com')).closest('tr')!;
    expect(within(row).getByText('failed, can retry')).toBeInTheDocument();
    expect(await screen.findByText('Nobody got the daily email that day.')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Type'), 'welcome');
    const retry = screen.getByRole('button', { name: 'Retry failed “Welcome” emails' });
    await user.click(retry);
    const dialog = screen.getByRole('dialog', { name: 'Retry the failed “Welcome” emails?' });
    expect(dialog).toHaveTextContent('Send every open failed Welcome email again (at most 100)?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(mockApi.calls('POST', '/admin/retry-failed-emails')).toHaveLength(0);

    await user.click(retry);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Retry now' }));
    expect(await screen.findByText(/Retried 1 email — 1 sent, 0 still failing/)).toBeInTheDocument();
    expect(mockApi.calls('POST', '/admin/retry-failed-emails').map((r) => r.body)).toEqual([{ type: 'welcome' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

// The writer's Tips tab: tip settings (currency, one to five amounts) and the tips received.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketEvents } from '@/features/socket';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { parseSuggestedAmounts } from './tip-settings-form';
import { TipsStudio } from './tips-studio';

const tip = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  postId: 'p1',
  post: { id: 'p1', title: 'Tides', slug: 'tides' },
  authorId: 'u1',
  author: { id: 'u1', name: 'Ada' },
  from: { id: 'r1', name: 'Ana' },
  amount: 500,
  currency: 'usd',
  fee: 50,
  net: 450,
  message: 'Thanks!',
  public: true,
  hidden: false,
  status: 'succeeded',
  createdAt: '2026-01-02T00:00:00Z',
  mode: 'test',
  ...over,
});
const page = (tips: unknown[]) => ({ tips, total: tips.length, page: 1, totalPages: 1, limit: 10 });

describe('suggested amounts typed by the writer', () => {
  it('are one to five amounts in major units, saved in minor units, smallest first', () => {
    expect(parseSuggestedAmounts('10, 3 5', 'usd')).toEqual({ amounts: [300, 500, 1000] });
    expect(parseSuggestedAmounts('2.50', 'usd')).toEqual({ amounts: [250] });
    expect(parseSuggestedAmounts('', 'usd')).toEqual({ problem: 'Suggest 1 to 5 amounts, separated by commas.' });
    expect(parseSuggestedAmounts('1, 2, 3, 4, 5, 6', 'usd')).toEqual({ problem: 'Suggest 1 to 5 amounts, separated by commas.' });
    expect(parseSuggestedAmounts('3, lots', 'usd')).toEqual({ problem: '“lots” is not an amount: write amounts such as 3, 5 or 7.50.' });
    expect(parseSuggestedAmounts('3, 3', 'usd')).toEqual({ problem: 'Suggest each amount once.' });
    expect(parseSuggestedAmounts('0', 'usd')).toEqual({ problem: '“0” is not an amount: write amounts such as 3, 5 or 7.50.' });
  });
});

describe('the Tips tab', () => {
  it('saves the currency and suggested amounts', async () => {
    mockApi.on('GET', '/tips/settings', { body: { message: 'Tip settings', settings: { currency: 'usd', suggestedAmounts: [300, 500, 1000] }, currencies: ['usd', 'eur', 'gbp', 'inr'] } });
    mockApi.on('GET', '/tips/received', { body: page([]) });
    mockApi.on('PUT', '/tips/settings', (req) => ({ body: { message: 'Tip settings saved', settings: req.body, currencies: ['usd', 'eur', 'gbp', 'inr'] } }));
    const user = userEvent.setup();
    renderWithProviders(<TipsStudio />, { preloadedState: { auth: signedInAuth() } });
    const amounts = await screen.findByLabelText('Suggested amounts');
    await vi.waitFor(() => expect(amounts).toHaveValue('3, 5, 10'));
    expect(await screen.findByText('No tips yet: readers tip a post from the support card under it.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Currency'), 'eur');
    await user.clear(amounts);
    await user.type(amounts, '2, 4.50');
    expect(amounts).toHaveAccessibleDescription(/€2\.00 · €4\.50/);
    await user.click(screen.getByRole('button', { name: 'Save tip settings' }));
    expect(await screen.findByText('Tip settings saved')).toBeInTheDocument();
    expect(mockApi.calls('PUT', '/tips/settings')[0].body).toEqual({ currency: 'eur', suggestedAmounts: [200, 450] });
  });

  it('lists the tips received with the post each came for, hides a message, and lists a live tip at once', async () => {
    let tips = [tip('t1')];
    mockApi.on('GET', '/tips/settings', { body: { message: 'Tip settings', settings: { currency: 'usd', suggestedAmounts: [500] }, currencies: ['usd', 'eur', 'gbp', 'inr'] } });
    mockApi.on('GET', '/tips/received', () => ({ body: page(tips) }));
    mockApi.on('PATCH', '/tips/t1', () => {
      tips = [tip('t1', { hidden: true })];
      return { body: { message: 'Message hidden', tip: tips[0] } };
    });
    const user = userEvent.setup();
    const { store } = renderWithProviders(<TipsStudio />, { preloadedState: { auth: signedInAuth() } });
    const row = await screen.findByTestId('tip-received');
    expect(within(row).getByRole('link', { name: 'Tides' })).toHaveAttribute('href', '/post/tides');
    expect(row).toHaveTextContent('Ana');
    expect(row).toHaveTextContent('$5.00');
    expect(row).toHaveTextContent('$0.50');
    expect(row).toHaveTextContent('$4.50');
    expect(row).toHaveTextContent('succeeded');
    await user.click(within(row).getByRole('button', { name: 'Hide the message of Ana' }));
    expect(await screen.findByText('Message hidden')).toBeInTheDocument();
    expect(await within(screen.getByTestId('tip-received')).findByRole('button', { name: 'Show the message of Ana' })).toBeInTheDocument();

    tips = [tip('t2', { from: { id: 'r2', name: 'Bo' }, message: null }), ...tips];
    act(() => {
      store.dispatch(socketEvents.tipReceived({ tipId: 't2', postId: 'p1', amount: 500, currency: 'usd', from: { id: 'r2', name: 'Bo' }, message: null }));
    });
    expect(await screen.findByText('Bo')).toBeInTheDocument();
  });
});

// A delivery log shows the body each delivery sent, behind a closed "Request body" disclosure:
// pretty-printed when it is JSON, as it is otherwise; and the endpoint's answer.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { DeliveryLog, prettyJson } from './delivery-log';

const payload = '{"type":"webhook.test","timestamp":"2026-01-02T10:00:00.000Z","data":{"webhookId":"w1","message":"A test event from Pressroom."}}';
const delivery = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  webhookId: 'w1',
  messageId: 'msg_1',
  eventType: 'webhook.test',
  attempt: 1,
  status: 'succeeded',
  responseStatus: 200,
  at: '2026-01-02T10:00:00Z',
  durationMs: 12,
  response: 'ok',
  payload,
  ...over,
});

function renderLog() {
  return renderWithProviders(<DeliveryLog webhookId="w1" watchId={null} />, { preloadedState: { auth: signedInAuth() } });
}

describe('the delivery log', () => {
  it('shows the request body pretty-printed once expanded, beside the endpoint’s answer', async () => {
    mockApi.on('GET', '/webhooks/w1/deliveries', { body: { deliveries: [delivery({ response: '{"received":true}' })] } });
    const user = userEvent.setup();
    renderLog();
    const row = within(await screen.findByRole('list', { name: 'Deliveries' })).getByRole('listitem');
    expect(within(row).getByLabelText('Response')).toHaveTextContent('{ "received": true }');

    const summary = within(row).getByText('Request body');
    expect(summary.tagName).toBe('SUMMARY');
    const details = summary.closest('details');
    if (!details) throw new Error('no disclosure');
    const body = within(details).getByText(/"type": "webhook\.test"/);
    expect(details).not.toHaveAttribute('open');
    expect(body).not.toBeVisible();

    await user.click(summary);
    expect(details).toHaveAttribute('open');
    expect(body).toBeVisible();
    expect(body.tagName).toBe('PRE');
    expect(body.textContent).toBe(JSON.stringify(JSON.parse(payload), null, 2));
    expect(body.textContent).toContain('\n  "data": {\n    "webhookId": "w1",');
  });

  it('shows a body that is not JSON as it was sent', async () => {
    mockApi.on('GET', '/webhooks/w1/deliveries', { body: { deliveries: [delivery({ payload: 'not {json', response: null })] } });
    const user = userEvent.setup();
    renderLog();
    const row = within(await screen.findByRole('list', { name: 'Deliveries' })).getByRole('listitem');
    expect(within(row).queryByLabelText('Response')).not.toBeInTheDocument();
    await user.click(within(row).getByText('Request body'));
    expect(within(row).getByText('not {json')).toBeVisible();
  });

  it('pretty-prints JSON objects and arrays only', () => {
    expect(prettyJson('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson('{"cut short')).toBe('{"cut short');
    expect(prettyJson('12345678901234567890')).toBe('12345678901234567890');
    expect(prettyJson('')).toBe('');
  });
});

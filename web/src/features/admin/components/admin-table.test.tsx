import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminTable, type Column, type TableList } from './admin-table';
import { useConfirmedAction } from './use-confirmed-action';

interface Row {
  _id: string;
  name: string;
}

const columns: Column<Row>[] = [
  { header: 'Name', cell: (r) => r.name },
  { header: 'Actions', hiddenHeader: true, cell: (r) => <button type="button">Open {r.name}</button> },
];

const list = (over: Partial<TableList<Row>> = {}): TableList<Row> => ({ items: [], page: 1, totalPages: 0, status: 'succeeded', error: null, ...over });

function table(l: TableList<Row>, extra: { onRetry?: () => void; onPage?: (page: number) => void; busyWhileLoading?: boolean } = {}) {
  return render(
    <AdminTable list={l} label="People" columns={columns} emptyText="Nobody yet." onRetry={extra.onRetry ?? (() => {})} onPage={extra.onPage ?? (() => {})} busyWhileLoading={extra.busyWhileLoading} />,
  );
}

describe('the table of a dashboard list', () => {
  it('says it is loading, then empty, and offers Try again with the error', async () => {
    const { rerender } = table(list({ status: 'loading' }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    rerender(<AdminTable list={list()} label="People" columns={columns} emptyText="Nobody yet." onRetry={() => {}} onPage={() => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Nobody yet.');
    const onRetry = vi.fn();
    rerender(<AdminTable list={list({ status: 'failed', error: 'Failed to fetch people' })} label="People" columns={columns} emptyText="Nobody yet." onRetry={onRetry} onPage={() => {}} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch people');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows a row per item under the column headers (an actions header for screen readers only) and pages', async () => {
    const onPage = vi.fn();
    table(list({ items: [{ _id: 'a', name: 'Ada' }, { _id: 'b', name: 'Bo' }], page: 2, totalPages: 3 }), { onPage });
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Actions']);
    expect(within(rows[0]).getByText('Actions')).toHaveClass('visually-hidden');
    expect(within(rows[2]).getByRole('button', { name: 'Open Bo' })).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'People pages' });
    expect(pager).toHaveTextContent('Page 2 of 3');
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it('marks the table busy and holds the pager while a page loads, when asked to', () => {
    table(list({ items: [{ _id: 'a', name: 'Ada' }], page: 1, totalPages: 2, status: 'loading' }), { busyWhileLoading: true });
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});

function Doomed({ run }: { run: (name: string) => Promise<unknown> }) {
  const deletion = useConfirmedAction(run);
  return (
    <>
      <button type="button" onClick={() => deletion.ask('Ada')}>
        Delete Ada
      </button>
      {deletion.dialog((name) => ({ title: `Delete ${name}?`, confirmLabel: 'Delete account', danger: true, body: <p>This cannot be undone.</p> }))}
    </>
  );
}

describe('an action that asks first', () => {
  it('opens a labelled modal dialog; Escape cancels it and focus goes back to the button', async () => {
    const run = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    render(<Doomed run={run} />);
    const opener = screen.getByRole('button', { name: 'Delete Ada' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Delete Ada?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(run).not.toHaveBeenCalled();
  });

  it('runs once on a double click of the confirmation, busy meanwhile, then closes', async () => {
    let finish: () => void = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const user = userEvent.setup();
    render(<Doomed run={run} />);
    await user.click(screen.getByRole('button', { name: 'Delete Ada' }));
    await user.dblClick(screen.getByRole('button', { name: 'Delete account' }));
    expect(run).toHaveBeenCalledOnce();
    expect(run).toHaveBeenCalledWith('Ada');
    expect(screen.getByRole('button', { name: 'Working...' })).toBeDisabled();
    finish();
    await screen.findByRole('button', { name: 'Delete Ada' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

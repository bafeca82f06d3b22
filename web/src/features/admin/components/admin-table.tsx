/**
 * What the dashboard's list sections share: the list's state line (loading, error with Try
 * again, empty), its table with a header row, its pager, and the confirmation a destructive row
 * action asks for (`useConfirmedAction`).
 */
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { PagedList } from '../state/paged-list';
import { ListState } from './list-state';
import { Pager } from './pager';

export interface Column<T> {
  /** The header text; a column of row actions has a header only screen readers read. */
  header: string;
  hiddenHeader?: boolean;
  cell: (item: T) => ReactNode;
}

export function AdminTable<T extends { _id: string }>({
  list,
  label,
  columns,
  emptyText,
  onRetry,
  onPage,
  busyWhileLoading = false,
  hideState = false,
}: {
  list: PagedList<T>;
  /** Names the pager ("{label} pages"). */
  label: string;
  columns: Column<T>[];
  emptyText: string;
  onRetry: () => void;
  onPage: (page: number) => void;
  /** Marks the table busy and holds the pager while a page loads. */
  busyWhileLoading?: boolean;
  /** When the section shows its own state line instead. */
  hideState?: boolean;
}) {
  const loadingNow = list.status === 'loading';
  return (
    <>
      {hideState ? null : <ListState status={list.status} error={list.error} count={list.items.length} emptyText={emptyText} onRetry={onRetry} />}
      {list.items.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table" aria-busy={busyWhileLoading ? loadingNow : undefined}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col">
                    {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.items.map((item) => (
                <tr key={item._id}>
                  {columns.map((column) => (
                    <td key={column.header}>{column.cell(item)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label={label} page={list.page} totalPages={list.totalPages} onPage={onPage} disabled={busyWhileLoading ? loadingNow : undefined} />
    </>
  );
}

/**
 * A row action that asks first: `ask(item)` opens the dialog, confirming runs `run(item)` with
 * the dialog busy, then closes it. `dialog(...)` renders it (nothing while nobody is asked).
 */
export function useConfirmedAction<T>(run: (item: T) => Promise<unknown>) {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    await run(target);
    setBusy(false);
    setTarget(null);
  };
  const dialog = (render: (item: T) => { title: string; confirmLabel: string; danger?: boolean; body: ReactNode }) => {
    if (target === null) return null;
    const { title, confirmLabel, danger, body } = render(target);
    return (
      <ConfirmDialog title={title} confirmLabel={confirmLabel} danger={danger} busy={busy} onConfirm={() => void confirm()} onCancel={() => setTarget(null)}>
        {body}
      </ConfirmDialog>
    );
  };
  return { ask: setTarget, target, dialog };
}

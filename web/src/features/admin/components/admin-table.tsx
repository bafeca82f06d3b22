/**
 * The table every list section of the dashboard shows: the list's state line (loading, error with
 * Try again, empty), its table with a header row, and its pager. Rows are keyed by `_id` unless
 * the section says how (`rowKey`). Destructive row actions ask first through
 * `useConfirmedAction` (./use-confirmed-action).
 */
import type { ReactNode } from 'react';
import type { Status } from '../admin-types';
import { ListState } from './list-state';
import { Pager } from '../../../components/pager';

export interface Column<T> {
  /** The header text; a column of row actions has a header only screen readers read. */
  header: string;
  hiddenHeader?: boolean;
  /** Class of the column's cells (for example `small`). */
  className?: string;
  cell: (item: T) => ReactNode;
}

/** What the table reads of a list: the paged lists of the admin state have it, and more. */
export interface TableList<T> {
  items: T[];
  page: number;
  totalPages: number;
  status: Status;
  error: string | null;
}

const idOf = (item: unknown) => (item as { _id: string })._id;

export function AdminTable<T>({
  list,
  label,
  columns,
  emptyText,
  onRetry,
  onPage,
  rowKey = idOf,
  caption,
  busyWhileLoading = false,
  hideState = false,
}: {
  list: TableList<T>;
  /** Names the pager ("{label} pages"). */
  label: string;
  columns: Column<T>[];
  emptyText: string;
  onRetry: () => void;
  onPage: (page: number) => void;
  /** A row's key; its `_id` unless given. */
  rowKey?: (item: T) => string;
  /** Read by screen readers only, as the table's name. */
  caption?: string;
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
            {caption ? <caption className="visually-hidden">{caption}</caption> : null}
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
                <tr key={rowKey(item)}>
                  {columns.map((column) => (
                    <td key={column.header} className={column.className}>
                      {column.cell(item)}
                    </td>
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

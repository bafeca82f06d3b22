/** An author's earnings: balances per currency and their ledger (plans and tips), a page at a time. */
import { useState } from 'react';
import { useGetEarningMyEarningsQuery, type GetEarningMyEarningsApiResponse } from '@/api/endpoints';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/money';
import { EARNINGS_PAGE_SIZE, PAYMENTS_FALLBACK } from '../payments-slice';
import { Pager } from '../../../components/pager';

type Entry = GetEarningMyEarningsApiResponse['entries'][number];

const KIND_LABELS: Record<string, string> = {
  charge: 'Subscription payment',
  refund: 'Refund',
  refund_reversal: 'Refund reversed',
  payout: 'Payout',
  payout_reversal: 'Payout returned',
};

/** What an entry records: "Tip · <post title>" for a tip, else its kind. */
export function entryLabel(entry: Pick<Entry, 'kind'> & { source?: string | null; postTitle?: string | null }): string {
  if (entry.source === 'tip') {
    const title = entry.postTitle ?? 'a deleted post';
    if (entry.kind === 'charge') return `Tip · ${title}`;
    if (entry.kind === 'refund') return `Tip refunded · ${title}`;
    return `${KIND_LABELS[entry.kind] ?? entry.kind} · tip · ${title}`;
  }
  return KIND_LABELS[entry.kind] ?? entry.kind;
}

export function EarningsPanel() {
  const [page, setPage] = useState(1);
  // `GET /earning/my-earnings`: the page shown stays while the next one loads.
  const { data, error, isError, refetch } = useGetEarningMyEarningsQuery({ page: String(page), limit: String(EARNINGS_PAGE_SIZE) });
  return (
    <section className="panel" aria-labelledby="earnings-title" data-testid="earnings">
      <h2 id="earnings-title">Earnings</h2>
      {isError ? (
        <div className="list-state list-state--error" role="alert">
          <span>{errorMessage(error, PAYMENTS_FALLBACK.earnings)}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {!data && !isError ? <p role="status">Loading...</p> : null}
      {data ? (
        <>
          {data.earnings.length === 0 ? (
            <p className="muted">No earnings yet: they appear here when a reader pays for one of your plans or tips one of your posts.</p>
          ) : (
            <table className="data-table">
              <caption className="visually-hidden">Balances per currency</caption>
              <thead>
                <tr>
                  <th scope="col">Currency</th>
                  <th scope="col">Gross</th>
                  <th scope="col">Fees</th>
                  <th scope="col">Refunds</th>
                  <th scope="col">Paid out</th>
                  <th scope="col">Available</th>
                </tr>
              </thead>
              <tbody>
                {data.earnings.map((b) => (
                  <tr key={b.currency}>
                    <td>{b.currency.toUpperCase()}</td>
                    <td>{formatMoney(b.gross, b.currency)}</td>
                    <td>{formatMoney(b.fees, b.currency)}</td>
                    <td>{formatMoney(b.refunds, b.currency)}</td>
                    <td data-testid={`paid-out-${b.currency}`}>{formatMoney(b.paidOut, b.currency)}</td>
                    <td>
                      <strong>{formatMoney(b.availableBalance, b.currency)}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="muted small">
            Payouts are made by the administrators from {formatMoney(data.minPayout, data.earnings[0]?.currency ?? 'usd')} up
            {data.hasBankDetails ? '.' : ', once you have added bank details.'}
          </p>
          {data.entries.length > 0 ? (
            <>
              <h3>History</h3>
              <table className="data-table">
                <caption className="visually-hidden">Ledger, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">What</th>
                    <th scope="col">Gross</th>
                    <th scope="col">Fee</th>
                    <th scope="col">Effect on balance</th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((e) => (
                    <tr key={e._id}>
                      <td>{formatDate(e.createdAt)}</td>
                      <td>{entryLabel(e)}</td>
                      <td>{formatMoney(e.gross, e.currency)}</td>
                      <td>{formatMoney(e.fee, e.currency)}</td>
                      <td>{formatMoney(e.amount, e.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} totalPages={data.totalPages} onPage={setPage} label="Earnings history" />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/**
 * Operations: each node's live figures and the cluster's, as the nodes send them over the socket
 * every few seconds (`operationsSnapshot`, administrators only): online users, guests and sockets,
 * events and HTTP requests per second with their p99, the health of the database, Redis and the
 * indexes, and the last run of each job.
 */
import { useEffect, useState } from 'react';
import { useAppSelector } from '@/app/hooks';
import { clusterFigures, selectOperations, type NodeFigures } from '../operations-slice';

/** A node that has not reported for this many of its intervals is shown as silent. */
const SILENT_AFTER_INTERVALS = 3;

function ms(value: number | string | null): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value;
  return `${value} ms`;
}

function Health({ value }: { value: string }) {
  const ok = value === 'ok' || value === 'ready';
  return <span className={ok ? 'health health--ok' : 'health health--bad'}>{value}</span>;
}

function useNow(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

export function OperationsSection() {
  const { nodes } = useAppSelector(selectOperations);
  const now = useNow(1000);
  const list = Object.values(nodes).sort((a, b) => a.node.localeCompare(b.node));
  const live = list.filter((n) => now - n.receivedAt < n.intervalSeconds * 1000 * SILENT_AFTER_INTERVALS);
  const cluster = clusterFigures(live);
  if (!list.length) {
    return <p role="status">Waiting for the nodes’ figures (they arrive every few seconds)…</p>;
  }
  const row = (label: string, n: Pick<NodeFigures, 'onlineUsers' | 'guests' | 'sockets' | 'eventsPerSecond' | 'fanoutP99Ms' | 'httpPerSecond' | 'httpP99Ms'>) => (
    <>
      <th scope="row">{label}</th>
      <td data-figure="onlineUsers">{n.onlineUsers}</td>
      <td data-figure="guests">{n.guests}</td>
      <td data-figure="sockets">{n.sockets}</td>
      <td data-figure="eventsPerSecond">{n.eventsPerSecond}</td>
      <td data-figure="fanoutP99">{ms(n.fanoutP99Ms)}</td>
      <td data-figure="httpPerSecond">{n.httpPerSecond}</td>
      <td data-figure="httpP99">{ms(n.httpP99Ms)}</td>
    </>
  );
  return (
    <div className="operations">
      <table className="data-table" aria-label="Live figures">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Online users</th>
            <th scope="col">Guests</th>
            <th scope="col">Sockets</th>
            <th scope="col">Events/s</th>
            <th scope="col">Fan-out p99</th>
            <th scope="col">HTTP req/s</th>
            <th scope="col">HTTP p99</th>
            <th scope="col">Database</th>
            <th scope="col">Redis</th>
            <th scope="col">Read index</th>
            <th scope="col">Search index</th>
          </tr>
        </thead>
        <tbody>
          {list.map((n) => {
            const silent = !live.includes(n);
            return (
              <tr key={n.node} data-node={n.node} className={silent ? 'operations__silent' : undefined}>
                {row(silent ? `${n.node} (silent)` : n.node, n)}
                <td><Health value={n.db} /></td>
                <td><Health value={n.redis} /></td>
                <td><Health value={n.readIndex} /></td>
                <td><Health value={n.searchIndex} /></td>
              </tr>
            );
          })}
          <tr data-node="cluster" className="operations__total">
            {row(`Cluster (${cluster.nodes} node${cluster.nodes === 1 ? '' : 's'})`, cluster)}
            <td colSpan={4}>online users and guests are added up over nodes; p99 is the worst node’s</td>
          </tr>
        </tbody>
      </table>
      <h3>Jobs</h3>
      <table className="data-table data-table--compact" aria-label="Jobs">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Every</th>
            <th scope="col">Last run</th>
            <th scope="col">Runs</th>
            <th scope="col">Failures</th>
          </tr>
        </thead>
        <tbody>
          {cluster.jobs.map((j) => (
            <tr key={j.name}>
              <th scope="row">{j.name}</th>
              <td>{j.periodSeconds} s</td>
              <td>{j.lastRunAt ? new Date(j.lastRunAt).toLocaleString() : 'not yet'}</td>
              <td>{j.runs}</td>
              <td>{j.failures}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setupStore } from '@/app/store';
import { socketEvents } from '@/features/socket';
import { renderWithProviders } from '@/test/render';
import { clusterFigures, parseFigures } from './operations-slice';
import { OperationsSection } from './sections/operations-section';

function snapshot(node: string, extra: Record<string, unknown> = {}) {
  return {
    node,
    at: '2026-11-26T00:00:00Z',
    intervalSeconds: 3,
    onlineUsers: 2,
    guests: 1,
    sockets: 4,
    eventsPerSecond: 1.5,
    fanoutP99Ms: 0.5,
    httpPerSecond: 10,
    httpP99Ms: 25,
    db: 'ok',
    redis: 'ok',
    readIndex: 'ready',
    searchIndex: 'ready',
    jobs: [{ name: 'trending', periodSeconds: 600, lastRunAt: '2026-11-26T00:00:00Z', runs: 1, failures: 0 }],
    ...extra,
  };
}

describe('operations', () => {
  it('keeps the latest figures of each node and replaces a node’s older ones', () => {
    const store = setupStore();
    store.dispatch(socketEvents.operationsSnapshotReceived(snapshot('node1')));
    store.dispatch(socketEvents.operationsSnapshotReceived(snapshot('node2', { sockets: 7 })));
    store.dispatch(socketEvents.operationsSnapshotReceived(snapshot('node1', { sockets: 5 })));
    const nodes = store.getState().operations.nodes;
    expect(Object.keys(nodes).sort()).toEqual(['node1', 'node2']);
    expect(nodes.node1.sockets).toBe(5);
    expect(nodes.node2.sockets).toBe(7);
  });

  it('ignores a snapshot without a node and coerces bad numbers to zero', () => {
    expect(parseFigures({ sockets: 3 })).toBeNull();
    expect(parseFigures({ node: 'n', sockets: 'many', jobs: 'none' })).toMatchObject({ sockets: 0, jobs: [] });
  });

  it('adds the nodes up for the cluster, with the worst p99 and each job’s latest run', () => {
    const a = parseFigures(snapshot('node1'))!;
    const b = parseFigures(
      snapshot('node2', {
        fanoutP99Ms: 2,
        httpP99Ms: 10,
        jobs: [{ name: 'trending', periodSeconds: 600, lastRunAt: '2026-11-26T00:10:00Z', runs: 2, failures: 1 }],
      }),
    )!;
    const cluster = clusterFigures([a, b]);
    expect(cluster).toMatchObject({ nodes: 2, onlineUsers: 4, guests: 2, sockets: 8, eventsPerSecond: 3, httpPerSecond: 20, fanoutP99Ms: 2, httpP99Ms: 25 });
    expect(cluster.jobs).toEqual([{ name: 'trending', periodSeconds: 600, lastRunAt: '2026-11-26T00:10:00Z', runs: 3, failures: 1 }]);
  });

  it('shows each node and the cluster, and follows new snapshots', () => {
    const { store } = renderWithProviders(<OperationsSection />);
    expect(screen.getByRole('status')).toHaveTextContent(/Waiting/);
    act(() => {
      store.dispatch(socketEvents.operationsSnapshotReceived(snapshot('node1')));
      store.dispatch(socketEvents.operationsSnapshotReceived(snapshot('node2', { db: 'down' })));
    });
    const table = screen.getByRole('table', { name: 'Live figures' });
    const node2 = within(table).getByRole('row', { name: /node2/ });
    expect(within(node2).getByText('down')).toHaveClass('health--bad');
    const cluster = within(table).getByRole('row', { name: /Cluster \(2 nodes\)/ });
    expect(cluster.querySelector('[data-figure="sockets"]')).toHaveTextContent('8');
    act(() => {
      store.dispatch(socketEvents.operationsSnapshotReceived(snapshot('node1', { sockets: 6 })));
    });
    expect(cluster.querySelector('[data-figure="sockets"]')).toHaveTextContent('10');
    expect(screen.getByRole('table', { name: 'Jobs' })).toHaveTextContent('trending');
  });
});

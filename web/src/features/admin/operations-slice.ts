/**
 * The Operations section's state: the latest figures of each node (`operationsSnapshot`, sent by
 * every node to administrators every few seconds), and the cluster's totals computed from them.
 * A node that has not reported for three of its intervals is shown as silent.
 */
import { createSlice } from '@reduxjs/toolkit';
import { injectReducers, type RootState } from '@/app/store';
import { socketEvents } from '@/features/socket';

export interface JobFigures {
  name: string;
  periodSeconds: number;
  lastRunAt: string | null;
  runs: number;
  failures: number;
}

export interface NodeFigures {
  node: string;
  at: string;
  intervalSeconds: number;
  onlineUsers: number;
  guests: number;
  sockets: number;
  eventsPerSecond: number;
  fanoutP99Ms: number | string | null;
  httpPerSecond: number;
  httpP99Ms: number | string | null;
  db: string;
  redis: string;
  readIndex: string;
  searchIndex: string;
  jobs: JobFigures[];
}

export interface OperationsState {
  nodes: Record<string, NodeFigures & { receivedAt: number }>;
}

export const initialOperationsState: OperationsState = { nodes: {} };

function num(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function latency(value: unknown): number | string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') return value;
  return null;
}

/** A snapshot from the socket, with every field checked. */
export function parseFigures(payload: Record<string, unknown>): NodeFigures | null {
  const node = str(payload.node);
  if (!node) return null;
  const jobs = Array.isArray(payload.jobs) ? payload.jobs : [];
  return {
    node,
    at: str(payload.at),
    intervalSeconds: num(payload.intervalSeconds) || 3,
    onlineUsers: num(payload.onlineUsers),
    guests: num(payload.guests),
    sockets: num(payload.sockets),
    eventsPerSecond: num(payload.eventsPerSecond),
    fanoutP99Ms: latency(payload.fanoutP99Ms),
    httpPerSecond: num(payload.httpPerSecond),
    httpP99Ms: latency(payload.httpP99Ms),
    db: str(payload.db, 'unknown'),
    redis: str(payload.redis, 'unknown'),
    readIndex: str(payload.readIndex, 'unknown'),
    searchIndex: str(payload.searchIndex, 'unknown'),
    jobs: jobs
      .filter((j): j is Record<string, unknown> => !!j && typeof j === 'object')
      .map((j) => ({
        name: str(j.name),
        periodSeconds: num(j.periodSeconds),
        lastRunAt: typeof j.lastRunAt === 'string' ? j.lastRunAt : null,
        runs: num(j.runs),
        failures: num(j.failures),
      }))
      .filter((j) => j.name),
  };
}

const operationsSlice = createSlice({
  name: 'operations',
  initialState: initialOperationsState,
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(socketEvents.operationsSnapshotReceived, (state, action) => {
      const figures = parseFigures(action.payload);
      if (figures) state.nodes[figures.node] = { ...figures, receivedAt: Date.now() };
    });
  },
});

export const operationsReducer = operationsSlice.reducer;
// Loaded on demand: the slice joins the store when this module loads.
injectReducers({ operations: operationsReducer });

export const selectOperations = (state: RootState) => state.operations;

export interface ClusterFigures {
  nodes: number;
  onlineUsers: number;
  guests: number;
  sockets: number;
  eventsPerSecond: number;
  httpPerSecond: number;
  fanoutP99Ms: number | string | null;
  httpP99Ms: number | string | null;
  jobs: JobFigures[];
}

function worst(values: (number | string | null)[]): number | string | null {
  if (values.some((v) => typeof v === 'string')) return values.find((v) => typeof v === 'string') ?? null;
  const numbers = values.filter((v): v is number => typeof v === 'number');
  return numbers.length ? Math.max(...numbers) : null;
}

/** The cluster: sums of the nodes' counts and rates, the worst p99, each job's latest run anywhere. */
export function clusterFigures(nodes: NodeFigures[]): ClusterFigures {
  const sum = (pick: (n: NodeFigures) => number) => Math.round(nodes.reduce((t, n) => t + pick(n), 0) * 100) / 100;
  const jobs = new Map<string, JobFigures>();
  for (const node of nodes) {
    for (const job of node.jobs) {
      const seen = jobs.get(job.name);
      if (!seen) {
        jobs.set(job.name, { ...job });
        continue;
      }
      seen.runs += job.runs;
      seen.failures += job.failures;
      if (job.lastRunAt && (!seen.lastRunAt || job.lastRunAt > seen.lastRunAt)) seen.lastRunAt = job.lastRunAt;
    }
  }
  return {
    nodes: nodes.length,
    onlineUsers: sum((n) => n.onlineUsers),
    guests: sum((n) => n.guests),
    sockets: sum((n) => n.sockets),
    eventsPerSecond: sum((n) => n.eventsPerSecond),
    httpPerSecond: sum((n) => n.httpPerSecond),
    fanoutP99Ms: worst(nodes.map((n) => n.fanoutP99Ms)),
    httpP99Ms: worst(nodes.map((n) => n.httpP99Ms)),
    jobs: [...jobs.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

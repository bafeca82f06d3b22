// A reconnect storm: thousands of socket.io-client websocket connections, the server killed and
// started again; every client is back within 30 s with the client's default back-off, and once
// they leave the server's memory returns to within 10 % of what it was before the storm.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { io } from 'socket.io-client';
import { Ferret, LONG, Server, figure, healthyWithin, request, sleep } from './lib.js';

const CLIENTS = Number(process.env.CHAOS_STORM_CLIENTS || (LONG ? 8_000 : 5_000));

let ferret;
let server;

before(async () => {
  ferret = await new Ferret('storm-db').start();
  server = await new Server('storm', { ferret }).start();
  assert.ok((await healthyWithin(server.url, 30_000)) < 30_000);
});
after(async () => {
  await server?.kill('SIGTERM');
  await ferret?.kill();
});

/** Connects `n` websocket clients in batches; resolves with them once all are connected. */
async function connectAll(n) {
  const sockets = [];
  for (let i = 0; i < n; i += 250) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 250); j += 1) {
      // One connection per client (no multiplexing), websocket only, default reconnection.
      const s = io(server.url, { transports: ['websocket'], forceNew: true });
      sockets.push(s);
      batch.push(new Promise((resolve, reject) => {
        s.once('connect', resolve);
        s.once('connect_error', reject);
      }));
    }
    await Promise.all(batch);
  }
  return sockets;
}

async function settledMemory() {
  // Let the allocator (it gives freed pages back after about a second), the server's timers and
  // the runtime's idle blocking threads (they exit after 10 s idle; their stacks are resident)
  // settle, then take the lowest of a few readings.
  await sleep(11_000);
  const readings = [];
  for (let i = 0; i < 5; i += 1) {
    readings.push(server.memoryKb());
    await sleep(400);
  }
  return {
    rss: Math.min(...readings.map((r) => r.rss)),
    anon: Math.min(...readings.map((r) => r.anon)),
  };
}

it(`${CLIENTS} websocket clients all reconnect within 30 s of a restart, and memory returns`, { timeout: 300_000 }, async () => {
  // Warm the server up with a small crowd first, so the baseline includes what any traffic
  // allocates once (thread-local caches, pools).
  const warm = await connectAll(200);
  for (const s of warm) s.close();
  const before = await settledMemory();
  const baseline = before.rss;

  const sockets = await connectAll(CLIENTS);
  const peakFiles = server.openFiles();
  figure('storm: clients connected', sockets.length);
  figure('storm: server open files with every client connected', peakFiles);

  const back = new Set();
  let last = 0;
  const restartedAt = { t: 0 };
  for (const s of sockets) {
    s.io.on('reconnect', () => {
      back.add(s);
      last = performance.now() - restartedAt.t;
    });
  }
  await server.kill('SIGKILL');
  await server.start();
  restartedAt.t = performance.now();
  const deadline = performance.now() + 30_000;
  const allBack = () => back.size === sockets.length && sockets.every((s) => s.connected);
  while (!allBack() && performance.now() < deadline) await sleep(200);
  const connected = sockets.filter((s) => s.connected).length;
  figure('storm: clients reconnected after the restart', `${back.size}/${sockets.length} (connected: ${connected})`);
  figure('storm: last client back, ms after the restart', last);
  assert.ok(allBack(), `only ${back.size} of ${sockets.length} reconnected (${connected} connected) within 30 s`);

  for (const s of sockets) s.close();
  const left = await settledMemory();
  const after = left.rss;
  // A second crowd on the same process: nothing grows with every storm either.
  const again = await connectAll(CLIENTS);
  for (const s of again) s.close();
  const leftAgain = await settledMemory();
  const afterAgain = leftAgain.rss;
  const percent = (kb) => `${kb >= baseline ? '+' : ''}${(((kb - baseline) / baseline) * 100).toFixed(1)} %`;
  figure('storm: server memory before the storm, MiB', (baseline / 1024).toFixed(1));
  figure('storm: server memory after the clients left, MiB', `${(after / 1024).toFixed(1)} (${percent(after)})`);
  figure('storm: server memory after a second crowd left, MiB', `${(afterAgain / 1024).toFixed(1)} (${percent(afterAgain)})`);
  const mib = (kb) => (kb / 1024).toFixed(1);
  figure('storm: of which anonymous (heap), before / after / after the second crowd, MiB', `${mib(before.anon)} / ${mib(left.anon)} / ${mib(leftAgain.anon)}`);
  // Requests are still served normally.
  const res = await request(server.url, 'GET', '/health');
  assert.equal(res.status, 200);
  assert.ok(after <= baseline * 1.1, `memory after the storm ${after} KiB is not within 10 % of ${baseline} KiB before it`);
  assert.ok(afterAgain <= baseline * 1.1, `memory after a second crowd ${afterAgain} KiB is not within 10 % of ${baseline} KiB`);
});

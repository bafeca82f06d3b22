// Slow and abusive clients: websocket clients that never read are disconnected without the server
// growing; oversized HTTP bodies get a 413 and oversized Socket.IO messages close their
// connection; 10,000 idle HTTP connections (slowloris) do not stop others from being served
// within 1 s; a client sending malformed packets at 1,000 a second is closed and costs the other
// clients nothing.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { Ferret, LONG, Server, figure, healthyWithin, request, sleep } from './lib.js';

const BODY_LIMIT = 1_048_576;
const MAX_PAYLOAD = 100_000;
const IDLE_CONNECTIONS = Number(process.env.CHAOS_IDLE_CONNECTIONS || (LONG ? 15_000 : 10_000));

let ferret;
let server;

before(async () => {
  ferret = await new Ferret('abuse-db').start();
  server = await new Server('abuse', {
    ferret,
    env: {
      PRESSROOM__SERVER__BODY_LIMIT: String(BODY_LIMIT),
      PRESSROOM__REALTIME__MAX_PAYLOAD: String(MAX_PAYLOAD),
      PRESSROOM__REALTIME__PING_INTERVAL_MS: '1000',
      PRESSROOM__REALTIME__PING_TIMEOUT_MS: '1000',
    },
  }).start();
  assert.ok((await healthyWithin(server.url, 30_000)) < 30_000);
});
after(async () => {
  await server?.kill('SIGTERM');
  await ferret?.kill();
});

const wsUrl = () => `${server.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`;

/** Times a few ordinary requests; returns the slowest, in ms. */
async function slowestOrdinary(n = 5) {
  let slowest = 0;
  for (let i = 0; i < n; i += 1) {
    for (const path of ['/health', '/api/post/latest-post/latest']) {
      const res = await request(server.url, 'GET', path, { limitMs: 10_000 });
      assert.equal(res.status, 200, `${path}: ${res.status} ${res.error ?? ''}`);
      slowest = Math.max(slowest, res.ms);
    }
  }
  return slowest;
}

describe('slow and abusive clients', { timeout: 300_000 }, () => {
  it('oversized HTTP bodies get a 413, with or without a declared length', async () => {
    const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(BODY_LIMIT + 10) });
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: big,
    });
    assert.equal(res.status, 413);
    // Chunked, without Content-Length: the limit holds while the body streams.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(BODY_LIMIT / 10)));
        controller.close();
      },
    });
    const chunked = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half',
    }).catch((e) => ({ status: `closed (${e.cause?.code ?? e.message})` }));
    assert.ok(chunked.status === 413 || String(chunked.status).startsWith('closed'), `chunked: ${chunked.status}`);
    figure('abuse: oversized body answer', `${res.status} (declared length), ${chunked.status} (chunked)`);
  });

  it('an oversized Socket.IO message closes its connection; others stay', async () => {
    const bystander = io(server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    const offender = io(server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    await Promise.all([bystander, offender].map((s) => new Promise((r) => s.once('connect', r))));
    const closed = new Promise((r) => offender.once('disconnect', r));
    offender.emit('message', 'x'.repeat(MAX_PAYLOAD * 2));
    const reason = await Promise.race([closed, sleep(5_000).then(() => 'still open')]);
    assert.notEqual(reason, 'still open');
    await sleep(300);
    assert.ok(bystander.connected, 'the other client stays connected');
    figure('abuse: oversized Socket.IO message', `closed (${reason})`);
    bystander.close();
    offender.close();
  });

  it('websocket clients that never read are disconnected and the server does not grow', async () => {
    const n = 200;
    await sleep(1_000);
    const rssBefore = server.rssKb();
    const filesBefore = server.openFiles();
    const sockets = await Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl());
      ws.once('open', () => {
        ws.send('40');
        // From here on nothing is read: the kernel buffers fill and the server's pings go
        // unanswered.
        ws._socket.pause();
        resolve(ws);
      });
      ws.once('error', reject);
    })));
    // Meanwhile the presence broadcasts and pings the server sends them pile up on its side.
    const crowd = [];
    for (let i = 0; i < 50; i += 1) crowd.push(io(server.url, { transports: ['websocket'], forceNew: true }));
    await sleep(5_000);
    for (const s of crowd) s.close();
    const rssDuring = server.rssKb();
    // Reading again shows what the server did: each connection was closed.
    const closed = await Promise.all(sockets.map((ws) => new Promise((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve(true);
      ws.once('close', () => resolve(true));
      ws._socket.resume();
      setTimeout(() => resolve(false), 5_000);
    })));
    const closedCount = closed.filter(Boolean).length;
    await sleep(1_000);
    const filesAfter = server.openFiles();
    figure('abuse: never-reading websocket clients disconnected', `${closedCount}/${n}`);
    figure('abuse: server memory before / with them, MiB', `${(rssBefore / 1024).toFixed(1)} / ${(rssDuring / 1024).toFixed(1)}`);
    assert.equal(closedCount, n, 'every never-reading client must be disconnected');
    assert.ok(filesAfter <= filesBefore + 5, `the server still holds ${filesAfter - filesBefore} more files`);
    assert.ok(rssDuring <= rssBefore * 1.25 + 10_240, `server memory grew from ${rssBefore} to ${rssDuring} KiB`);
  });

  it(`${IDLE_CONNECTIONS} idle HTTP connections do not stop others from being served within 1 s`, async () => {
    const baseline = await slowestOrdinary();
    const worker = new Worker(new URL('./slowloris-worker.js', import.meta.url), {
      workerData: { port: server.port, count: IDLE_CONNECTIONS },
    });
    let state = { connected: 0, open: 0, peak: 0 };
    let done = false;
    worker.on('message', (m) => {
      if (m.done) done = true;
      else state = m;
    });
    // Ordinary requests are timed all along, while the idle connections are opened and held.
    let slowest = 0;
    while (!done) {
      slowest = Math.max(slowest, await slowestOrdinary(1));
      await sleep(50);
    }
    for (let i = 0; i < 5; i += 1) slowest = Math.max(slowest, await slowestOrdinary(1));
    figure('abuse: idle (slowloris) connections opened / most open at once', `${state.connected} / ${state.peak}`);
    figure('abuse: slowest ordinary request, ms (before / among the idle connections)', `${Math.round(baseline)} / ${Math.round(slowest)}`);
    // The server ends connections whose request head does not arrive in time.
    const deadline = performance.now() + 30_000;
    while (state.open > 0 && performance.now() < deadline) await sleep(500);
    const stillOpen = state.open;
    figure('abuse: idle connections still open 30 s later', stillOpen);
    worker.postMessage('stop');
    await once(worker, 'exit');
    assert.equal(state.connected, IDLE_CONNECTIONS, 'every idle connection must be accepted');
    assert.ok(slowest < 1_000, `an ordinary request took ${Math.round(slowest)} ms among the idle connections`);
    assert.equal(stillOpen, 0, 'the server must drop connections that never finish a request');
  });

  it('a client sending malformed packets at 1,000 a second is closed and costs the others nothing', async () => {
    const bystanders = [];
    for (let i = 0; i < 20; i += 1) bystanders.push(io(server.url, { transports: ['websocket'], forceNew: true, reconnection: false }));
    await Promise.all(bystanders.map((s) => new Promise((r) => s.once('connect', r))));
    let dropped = 0;
    const reasons = new Set();
    for (const s of bystanders) s.on('disconnect', (reason) => { dropped += 1; reasons.add(reason); });
    const seconds = LONG ? 10 : 3;
    let sent = 0;
    let connections = 0;
    let closedByServer = 0;
    let slowestClose = 0;
    let slowestHealth = 0;
    const stopAt = performance.now() + seconds * 1_000;
    const attacker = (async () => {
      while (performance.now() < stopAt) {
        await new Promise((resolve) => {
          const ws = new WebSocket(wsUrl());
          connections += 1;
          let firstBad = 0;
          let timer;
          ws.once('open', () => {
            ws.send('40');
            timer = setInterval(() => {
              if (ws.readyState !== WebSocket.OPEN) return;
              // Garbage of every kind: unknown engine type, bad Socket.IO type, bad JSON, bad ack.
              const junk = ['9xx', '4{{{', '42["a",', '4999999999999999999999[]', '45-["x"]', '4/nsp,'][sent % 6];
              ws.send(junk);
              sent += 1;
              if (!firstBad) firstBad = performance.now();
            }, 1);
          });
          ws.once('close', () => {
            clearInterval(timer);
            if (firstBad) {
              closedByServer += 1;
              slowestClose = Math.max(slowestClose, performance.now() - firstBad);
            }
            resolve();
          });
          ws.once('error', () => { clearInterval(timer); resolve(); });
        });
      }
    })();
    while (performance.now() < stopAt) {
      const res = await request(server.url, 'GET', '/health', { limitMs: 5_000 });
      assert.equal(res.status, 200);
      slowestHealth = Math.max(slowestHealth, res.ms);
      await sleep(100);
    }
    await attacker;
    await sleep(500);
    const stillConnected = bystanders.filter((s) => s.connected).length;
    const droppedByServer = dropped;
    for (const s of bystanders) s.close();
    figure('abuse: malformed packets sent (one a millisecond, reconnecting at once when closed)', sent);
    figure('abuse: malformed-packet connections closed by the server', `${closedByServer}/${connections}`);
    figure('abuse: slowest close after the first malformed packet, ms', slowestClose);
    figure('abuse: slowest /health during the malformed-packet flood, ms', slowestHealth);
    assert.ok(sent >= connections && connections > 10, `${sent} packets over ${connections} connections`);
    assert.equal(closedByServer, connections, 'every malformed-packet connection must be closed by the server');
    assert.equal(droppedByServer, 0, `no other client may be disconnected (${[...reasons].join(', ')})`);
    assert.equal(stillConnected, bystanders.length);
    assert.ok(slowestHealth < 1_000, `/health took ${Math.round(slowestHealth)} ms during the flood`);
  });
});

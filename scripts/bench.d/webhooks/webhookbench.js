// The webhook benchmark's driver (scripts/bench webhooks): a loopback receiver answering 200,
// a writer with ENDPOINTS endpoints on it, then
//   - publish requests with no endpoints and with ENDPOINTS endpoints (median of 5 each): what
//     the endpoints cost the request that causes the event,
//   - N deliveries (N / ENDPOINTS posts published at once) from the first publish until the
//     receiver has them all: deliveries per second,
//   - the receiver's own floor: N signed-size POSTs sent to it straight, 16 at a time.
// Prints one JSON line. Environment: API (the server's address), N, ENDPOINTS.
'use strict';
const http = require('http');

const N = Number(process.env.N || 1000);
const ENDPOINTS = Number(process.env.ENDPOINTS || 100);
const API = process.env.API;

async function api(method, route, body, token) {
  const res = await fetch(`${API}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function signup(name) {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@bench.test`;
  const r = await api('POST', '/auth/signup', { fullName: 'Bench Writer', email, password: 'Bench-password-1' });
  return r.token;
}

const post = (title) => ({ title, blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'A post for the webhook benchmark.' } }] });

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timedPublish(token, title) {
  const t0 = performance.now();
  await api('POST', '/post/post-create', post(title), token);
  return performance.now() - t0;
}

async function main() {
  let received = 0;
  let bodyBytes = 0;
  let onCount = () => {};
  const server = http.createServer((req, res) => {
    let size = 0;
    req.on('data', (c) => { size += c.length; });
    req.on('end', () => {
      received += 1;
      bodyBytes = size;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      onCount();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/hook`;

  const quiet = await signup('quiet');
  const baseline = [];
  for (let i = 0; i < 5; i += 1) baseline.push(await timedPublish(quiet, `Quiet ${i}`));

  const writer = await signup('writer');
  for (let i = 0; i < ENDPOINTS; i += 1) {
    await api('POST', '/webhooks', { url, events: ['post.published'], description: `bench ${i}` }, writer);
  }
  // Each timed publish starts with the previous one's deliveries done: the figure is what the
  // listening endpoints cost the request itself.
  const loaded = [];
  for (let i = 0; i < 5; i += 1) {
    loaded.push(await timedPublish(writer, `Heard ${i}`));
    const want = (i + 1) * ENDPOINTS;
    await new Promise((resolve) => {
      onCount = () => { if (received >= want) resolve(); };
      onCount();
    });
  }

  const posts = Math.max(1, Math.round(N / ENDPOINTS));
  const target = received + posts * ENDPOINTS;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: posts }, (_, i) => api('POST', '/post/post-create', post(`Burst ${i}`), writer)));
  await new Promise((resolve) => {
    onCount = () => { if (received >= target) resolve(); };
    onCount();
  });
  const deliverySeconds = (performance.now() - t0) / 1000;

  // The receiver's floor: the same number of POSTs of the same size, 16 at a time.
  const payload = 'x'.repeat(bodyBytes || 300);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const floorTarget = received + posts * ENDPOINTS;
  const f0 = performance.now();
  let next = 0;
  async function worker() {
    while (next < posts * ENDPOINTS) {
      next += 1;
      await new Promise((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(payload);
      });
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker));
  const floorSeconds = (performance.now() - f0) / 1000;
  if (received < floorTarget) throw new Error('the floor run lost requests');
  server.close();
  agent.destroy();
  console.log(JSON.stringify({
    endpoints: ENDPOINTS,
    deliveries: posts * ENDPOINTS,
    publishMsNoEndpoints: median(baseline),
    publishMsWithEndpoints: median(loaded),
    deliverySeconds,
    deliveriesPerSecond: (posts * ENDPOINTS) / deliverySeconds,
    floorPerSecond: (posts * ENDPOINTS) / floorSeconds,
    bodyBytes,
  }));
}

main().catch((e) => { console.error(e); process.exit(1); });

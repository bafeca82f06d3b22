// The revisions benchmark's driver (scripts/bench revisions): a post of BLOCKS paragraphs of
// ordinary prose, saved again and again with one paragraph changed each time, then
//   - listing its revisions and comparing the two newest, at 2 revisions and at 25 (the limit),
//     median of RUNS requests each: whether the cost grows with the history,
//   - the store's floor: the post's own read by its slug (GET /api/post/{slug}), same runs,
//   - storage: the bytes of each revision's content as JSON against the bytes stored (deflated),
//     read from the database.
// Prints one JSON line. Environment: API (the server's address), URI (the database), DB, BLOCKS,
// RUNS.
'use strict';
const path = require('path');
const { MongoClient } = require(path.join(__dirname, '..', 'api-reference', 'node_modules', 'mongodb'));

const API = process.env.API;
const BLOCKS = Number(process.env.BLOCKS || 20);
const RUNS = Number(process.env.RUNS || 30);
const WORDS = ('the harbour was quiet that morning and the boats lay still on the grey water while gulls '
  + 'circled over the market where fishermen sorted the night catch into crates of ice and talked about '
  + 'the weather the prices and the new pier the council had promised for years').split(' ');

function prose(seed, words = 60) {
  const out = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]);
  return `${out.join(' ')}.`;
}

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

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed(fn) {
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function main() {
  const email = `rev-${Date.now()}@bench.test`;
  const { token } = await api('POST', '/auth/signup', { fullName: 'Bench Writer', email, password: 'Bench-password-1' });
  const blocks = Array.from({ length: BLOCKS }, (_, i) => ({ id: `b${i}`, type: 'paragraph', data: { text: prose(i) } }));
  const { post } = await api('POST', '/post/post-create', { title: 'Harbour diary', blocks }, token);
  let edits = 0;
  const edit = async () => {
    edits += 1;
    blocks[edits % BLOCKS] = { id: `b${edits % BLOCKS}`, type: 'paragraph', data: { text: prose(edits + 1000) } };
    await api('PATCH', `/post/update/${post.slug}`, { blocks }, token);
  };
  const measure = async () => {
    const { revisions } = await api('GET', `/post/${post._id}/revisions`, null, token);
    const [to, from] = revisions;
    return {
      revisions: revisions.length,
      listMs: await timed(() => api('GET', `/post/${post._id}/revisions`, null, token)),
      compareMs: await timed(() => api('GET', `/post/${post._id}/revisions/compare?from=${from.id}&to=${to.id}`, null, token)),
      floorMs: await timed(() => api('GET', `/post/${post.slug}`, null, token)),
    };
  };
  await edit();
  const small = await measure();
  while (edits < 40) await edit();
  const large = await measure();

  const client = new MongoClient(process.env.URI);
  await client.connect();
  const docs = await client.db(process.env.DB).collection('post_revisions').find({}).toArray();
  await client.close();
  const raw = docs.reduce((n, d) => n + Number(d.rawSize), 0);
  const stored = docs.reduce((n, d) => n + d.content.buffer.length, 0);
  console.log(JSON.stringify({ blocks: BLOCKS, runs: RUNS, edits, small, large, kept: docs.length, rawBytes: raw, storedBytes: stored }));
}

main().catch((e) => { console.error(e); process.exit(1); });

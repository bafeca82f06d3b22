// Writes under faults: 20 clients like, comment and follow without pause while FerretDB is killed
// (SIGKILL) and started again twice, then while the server itself is killed and started again.
// Afterwards every write that was answered 2xx is in the database, every counter equals its
// records, /health is 200 within 10 s of the database returning, and no request outlived the
// configured bound.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MongoClient, ObjectId } from 'mongodb';
import { io } from 'socket.io-client';
import { Ferret, LONG, Server, figure, healthyWithin, request, signup, sleep } from './lib.js';

const CLIENTS = 20;
const DB_KILLS = LONG ? 5 : 2;
const POSTS = 6;
// Operations wait at most this long for a reachable database before answering 503.
const SELECTION_MS = 2_000;
// The server's configured request timeout (server.request_timeout_ms): no request may outlive it
// (plus a second of slack for a loaded two-core machine between the server's answer and ours).
const REQUEST_TIMEOUT_MS = 8_000;
const REQUEST_BOUND_MS = REQUEST_TIMEOUT_MS + 1_000;

let ferret;
let server;
let mongo;
const acked = { likes: [], comments: [], follows: [] };
const outcomes = { ok: 0, refused: 0, failed: 0, timedOut: 0, slowest: 0 };
let users;
let posts;
const slugs = new Map();

function record(res) {
  outcomes.slowest = Math.max(outcomes.slowest, res.ms);
  if (res.timedOut) outcomes.timedOut += 1;
  if (res.status >= 200 && res.status < 300) outcomes.ok += 1;
  else if (res.status === 0) outcomes.failed += 1;
  else outcomes.refused += 1;
}

/** One client's endless loop: a like (each post once), a comment, a follow (each user once). */
async function client(i, stop) {
  const me = users[i];
  // What is left to like and follow carries over from one phase to the next.
  me.toLike ??= [...posts];
  me.toFollow ??= users.filter((u) => u.id !== me.id);
  const { toLike, toFollow } = me;
  let n = 0;
  while (!stop.done) {
    n += 1;
    const kind = n % 3;
    if (kind === 0 && toLike.length > 0) {
      const post = toLike[0];
      const res = await request(server.url, 'POST', `/api/post/like/${post}`, { token: me.token, limitMs: 60_000 });
      record(res);
      if (res.status === 200) {
        toLike.shift();
        // A like that answered 200 but turned the like off would mean a lost earlier write.
        assert.equal(res.json.liked, true, 'a first like must leave the post liked');
        acked.likes.push({ userId: me.id, postId: post });
      } else {
        // A like is a toggle: after an unanswered or failed attempt the outcome is unknown (the
        // mark may be stored), so trying again could undo it. The client moves on, as a person
        // reloading the page would see the result first.
        toLike.shift();
      }
    } else if (kind === 1) {
      const post = posts[n % posts.length];
      const res = await request(server.url, 'POST', `/api/comment/add-comment/${post}`, {
        token: me.token, body: { content: `comment ${i}-${n}` }, limitMs: 60_000,
      });
      record(res);
      if (res.status === 201) acked.comments.push({ id: res.json.comment._id, postId: post });
    } else if (toFollow.length > 0) {
      const target = toFollow[0];
      const res = await request(server.url, 'POST', `/api/follow/${target.id}`, { token: me.token, limitMs: 60_000 });
      record(res);
      if (res.status === 200) {
        toFollow.shift();
        acked.follows.push({ followerId: me.id, followeeId: target.id });
      }
    }
    if (n % 3 === 0 && toLike.length === 0 && toFollow.length === 0) await sleep(5);
  }
}

function startLoad() {
  const stop = { done: false };
  const running = users.map((_, i) => client(i, stop));
  return async () => {
    stop.done = true;
    await Promise.all(running);
  };
}

/**
 * Every acknowledged write is stored and every counter equals its records. A counter whose recount
 * failed during the outage is repaired in the background: it may take a few seconds after the
 * database returns. Returns how long it took to become consistent.
 */
async function assertConsistent() {
  const started = performance.now();
  for (;;) {
    try {
      await checkConsistent();
      return performance.now() - started;
    } catch (error) {
      if (performance.now() - started > 15_000) throw error;
      await sleep(250);
    }
  }
}

async function checkConsistent() {
  const db = mongo.db(server.db);
  const oid = (s) => new ObjectId(s);
  for (const like of acked.likes) {
    const found = await db.collection('likes').findOne({ userId: oid(like.userId), postId: oid(like.postId) });
    assert.ok(found, `acknowledged like ${JSON.stringify(like)} is missing`);
  }
  const commentIds = new Set((await db.collection('comments').find({}, { projection: { _id: 1 } }).toArray()).map((c) => String(c._id)));
  for (const c of acked.comments) assert.ok(commentIds.has(c.id), `acknowledged comment ${c.id} is missing`);
  for (const f of acked.follows) {
    const found = await db.collection('follows').findOne({ followerId: oid(f.followerId), followeeId: oid(f.followeeId) });
    assert.ok(found, `acknowledged follow ${JSON.stringify(f)} is missing`);
  }
  for (const id of posts) {
    const post = await db.collection('posts').findOne({ _id: oid(id) });
    const likes = await db.collection('likes').countDocuments({ postId: oid(id) });
    const comments = await db.collection('comments').countDocuments({ post: oid(id), blocked: { $ne: true } });
    assert.equal(post.likesCount, likes, `post ${id}: likesCount ${post.likesCount} but ${likes} likes`);
    assert.equal(post.commentsCount, comments, `post ${id}: commentsCount ${post.commentsCount} but ${comments} comments`);
    // What readers see (through the read index) agrees with the database.
    const seen = await request(server.url, 'GET', `/api/post/public/${slugs.get(id)}`);
    if (seen.status === 200) {
      const p = seen.json.post ?? seen.json;
      assert.equal(p.likesCount, likes, `post ${id} is shown with ${p.likesCount} likes, ${likes} stored`);
    }
  }
}

describe('writes under faults', { timeout: 600_000 }, () => {
  before(async () => {
    ferret = await new Ferret('writes-db').start();
    server = await new Server('writes', {
      ferret,
      env: {
        PRESSROOM__DATABASE__SERVER_SELECTION_TIMEOUT_MS: String(SELECTION_MS),
        PRESSROOM__SERVER__REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      },
    }).start();
    mongo = new MongoClient(ferret.uri, { serverSelectionTimeoutMS: 20_000 });
    users = [];
    for (let i = 0; i < CLIENTS; i += 1) users.push(await signup(server.url, `w${i}`));
    posts = [];
    for (let i = 0; i < POSTS; i += 1) {
      const author = users[i % CLIENTS];
      const res = await request(server.url, 'POST', '/api/post/post-create', {
        token: author.token,
        body: { title: `Chaos post ${i}`, blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Under load.' } }] },
      });
      assert.equal(res.status, 201, res.text);
      posts.push(res.json.post._id);
      slugs.set(res.json.post._id, res.json.post.slug);
    }
  });
  after(async () => {
    await mongo?.close();
    await server?.kill('SIGTERM');
    await ferret?.kill();
  });

  it(`loses no acknowledged write while the database is killed and restarted ${DB_KILLS} times`, async () => {
    const stopLoad = startLoad();
    const recoveries = [];
    await sleep(3_000);
    for (let round = 0; round < DB_KILLS; round += 1) {
      await ferret.kill();
      await sleep(2_000);
      await ferret.start();
      const ms = await healthyWithin(server.url, 10_000);
      recoveries.push(ms);
      assert.ok(ms <= 10_000, `/health was not 200 within 10 s of the database returning (round ${round + 1})`);
      await sleep(3_000);
    }
    await stopLoad();
    await mongo.connect();
    figure('counters equal to their records after the database kills, ms after the load stopped', await assertConsistent());
    figure('database kills survived', DB_KILLS);
    figure('writes acknowledged during database kills', outcomes.ok);
    figure('writes refused (503) during database kills', outcomes.refused);
    figure('/health back to 200 after the database returned, ms (max)', Math.max(...recoveries));
    figure('slowest request during database kills, ms', outcomes.slowest);
    assert.ok(outcomes.ok > 50, `too few writes went through (${outcomes.ok})`);
    assert.ok(outcomes.refused + outcomes.failed > 0, 'the kills must have been felt');
    assert.equal(outcomes.timedOut, 0, 'no request may hang');
    assert.ok(outcomes.slowest <= REQUEST_BOUND_MS, `a request took ${Math.round(outcomes.slowest)} ms (bound ${REQUEST_BOUND_MS} ms)`);
  });

  it('loses no acknowledged write when the server crashes under the same load, and clients reconnect', async () => {
    const before = { ...outcomes };
    const sockets = [];
    for (const u of users) {
      sockets.push(io(server.url, { transports: ['websocket'], auth: { token: u.token } }));
    }
    await Promise.all(sockets.map((s) => new Promise((r) => (s.connected ? r() : s.once('connect', r)))));
    const stopLoad = startLoad();
    await sleep(3_000);
    await server.kill('SIGKILL');
    await sleep(500);
    const restarted = performance.now();
    await server.start();
    const ms = await healthyWithin(server.url, 30_000);
    assert.ok(ms < 30_000, 'the restarted server must answer /health');
    // The clients' sockets come back by themselves (socket.io-client's default back-off).
    const reconnected = await Promise.all(sockets.map((s) => new Promise((r) => {
      if (s.connected) r(performance.now());
      else s.once('connect', () => r(performance.now()));
    })));
    await sleep(3_000);
    await stopLoad();
    for (const s of sockets) s.close();
    figure('counters equal to their records after the server crash, ms after the load stopped', await assertConsistent());
    figure('slowest request around the server crash, ms', outcomes.slowest);
    figure('server crashes survived', 1);
    figure('sockets reconnected after the server crash', `${sockets.length}/${sockets.length}`);
    figure('last socket back after the server restarted, ms', Math.max(...reconnected) - restarted);
    figure('writes acknowledged around the server crash', outcomes.ok - before.ok);
    assert.ok(outcomes.ok - before.ok > 20, 'writes must go on after the restart');
    assert.equal(outcomes.timedOut, 0, 'no request may hang');
  });
});

// New-post emails when the server is killed (SIGKILL) in the middle of sending: after it starts
// again it takes the post's announcement back when the lease expires and goes on from the last
// finished batch. Emails are claimed 32 at a time just before they are sent, so the chunk that
// was being sent when the process died is the most that can be in doubt: those emails are
// recorded as failed ("Interrupted ...") in the email log, for the administrators' retry. Nobody
// gets the post twice, and every follower either got it or has that failed entry.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MongoClient, ObjectId } from 'mongodb';
import { Ferret, Server, figure, request, signup, sleep } from './lib.js';

const FOLLOWERS = 1_000;
// Emails claimed and sent at once (src/services/jobs/announce/mod.rs, IN_FLIGHT): at most one such chunk is
// in doubt when the process dies.
const IN_FLIGHT = 32;
const INTERRUPTED = 'Interrupted: the server stopped while sending this email; it may not have been delivered';
const RUN = `kill${Date.now().toString(36)}`;

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the chaos suite through scripts/test`);
  return v;
}

/** Messages in the SMTP sink to this run's readers, by address. */
function mailsByReader() {
  const dir = need('PRESSROOM_TEST_MAILDIR');
  const counts = new Map();
  for (const sub of ['new', 'cur']) {
    const d = path.join(dir, sub);
    if (!existsSync(d)) continue;
    for (const name of readdirSync(d)) {
      let text;
      try {
        text = readFileSync(path.join(d, name), 'utf8');
      } catch {
        continue;
      }
      const to = /^To: .*?(reader-[a-z0-9]+-\d+@example\.com)/im.exec(text.split(/\r?\n\r?\n/)[0]);
      if (to && to[1].includes(RUN)) counts.set(to[1].toLowerCase(), (counts.get(to[1].toLowerCase()) ?? 0) + 1);
    }
  }
  return counts;
}

let ferret;
let server;
let mongo;

describe('new-post emails through a crash', () => {
  before(async () => {
    ferret = await new Ferret('mail-db').start();
    server = await new Server('mail', {
      ferret,
      env: {
        PRESSROOM__MAIL__TRANSPORT: 'smtp',
        PRESSROOM__MAIL__SMTP_HOST: '127.0.0.1',
        PRESSROOM__MAIL__SMTP_PORT: need('PRESSROOM_TEST_SMTP_PORT'),
        PRESSROOM__MAIL__SMTP_SECURITY: 'none',
      },
    }).start();
    mongo = await new MongoClient(ferret.uri).connect();
  });
  after(async () => {
    await mongo?.close();
    await server?.kill();
    await ferret?.kill();
  });

  it('sends nobody the post twice and finishes after the server is killed mid-send', async () => {
    const author = await signup(server.url, 'mail-author');
    const db = mongo.db(server.db);
    const now = new Date();
    const users = [];
    const follows = [];
    for (let i = 0; i < FOLLOWERS; i += 1) {
      const id = new ObjectId();
      users.push({ _id: id, name: `Reader ${i}`, email: `reader-${RUN}-${i}@example.com`, role: 'user', isAccountVerified: true, createdAt: now, updatedAt: now });
      follows.push({ followerId: id, followeeId: new ObjectId(author.id), createdAt: now });
    }
    await db.collection('users').insertMany(users);
    await db.collection('follows').insertMany(follows);

    const res = await request(server.url, 'POST', '/api/post/post-create', {
      token: author.token,
      body: { title: `Through the crash ${RUN}`, blocks: [{ id: 'p1', type: 'paragraph', data: { text: 'Once each.' } }] },
    });
    assert.equal(res.status, 201, res.text);
    const postId = res.json.post._id;

    // Kill it once some emails went out and before all did.
    const deadline = Date.now() + 120_000;
    let seen = 0;
    while (Date.now() < deadline) {
      seen = [...mailsByReader().values()].reduce((a, b) => a + b, 0);
      if (seen >= 50) break;
      await sleep(100);
    }
    assert.ok(seen >= 50 && seen < FOLLOWERS, `killed mid-send (${seen} sent)`);
    await server.kill('SIGKILL');
    const atKill = [...mailsByReader().values()].reduce((a, b) => a + b, 0);
    await server.start();

    // The lease (30 s) expires and the restarted server finishes the post.
    const finish = Date.now() + 240_000;
    let figures;
    while (Date.now() < finish) {
      const r = await request(server.url, 'GET', `/api/post/delivery/${postId}`, { token: author.token });
      figures = r.json;
      if (r.status === 200 && figures.done) break;
      await sleep(500);
    }
    assert.equal(figures?.done, true, `the post was finished after the restart: ${JSON.stringify(figures)}`);
    await sleep(1_000);
    const counts = mailsByReader();
    const twice = [...counts.entries()].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'nobody got the post twice');
    const total = counts.size;
    assert.ok(total > atKill, 'the restarted server went on sending');

    // Every follower got it or has a failed "Interrupted" entry in the email log; at most one
    // chunk was interrupted, and the figures count it as failed.
    const failed = await db
      .collection('email_logs')
      .find({ type: 'new_post', success: false, email: { $regex: `^reader-${RUN}-` } })
      .toArray();
    const interrupted = failed.filter((l) => l.error === INTERRUPTED);
    assert.equal(failed.length, interrupted.length, `every failed email was interrupted: ${JSON.stringify(failed.map((l) => l.error))}`);
    assert.ok(interrupted.length <= IN_FLIGHT, `at most one chunk interrupted (${interrupted.length})`);
    assert.ok(interrupted.every((l) => l.stopEmailAttempts === false && typeof l.body === 'string'), 'each can be retried');
    const recorded = new Set(interrupted.map((l) => l.email.toLowerCase()));
    const missing = users.map((u) => u.email.toLowerCase()).filter((e) => !counts.has(e) && !recorded.has(e));
    assert.deepEqual(missing, [], 'no follower lost silently');
    assert.equal(figures.emailsFailed, interrupted.length, `interrupted emails counted as failed: ${JSON.stringify(figures)}`);
    assert.equal(figures.emailsSent + figures.emailsFailed, FOLLOWERS, `every follower counted: ${JSON.stringify(figures)}`);
    figure('new-post emails delivered through a SIGKILL mid-send (of 1000)', total);
    figure('new-post emails interrupted by the SIGKILL, recorded as failed for a retry (at most 32)', interrupted.length);
  });
});

// A new post to many followers on two server processes over one database and one Redis: node A
// sends it and is killed (SIGKILL) in the middle of sending; node B, started after the publish
// so that the post is surely A's, takes it over when A's lease expires and finishes it. Nobody
// gets the post twice, every follower is notified once, and each email is either in the outbox or
// recorded as failed (at most the one chunk A had in flight).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MongoClient, ObjectId } from "mongodb";
import { required, sleep, startCluster } from "./cluster-helpers.js";

const FOLLOWERS = 2_000;
/** Emails a worker has in flight at once (src/services/jobs/announce/mod.rs, IN_FLIGHT). */
const IN_FLIGHT = 32;
/** The announcement's lease (src/services/jobs/announce/mod.rs, LEASE_MS): B takes over after it. */
const LEASE_MS = 30_000;
const RUN = `cl${Date.now().toString(36)}`;

let cluster;
let a;
let b;
let mongo;

before(async () => {
  cluster = await startCluster({ nodes: 2 });
  [a, b] = cluster.nodes;
  mongo = await new MongoClient(required("PRESSROOM_TEST_MONGODB_URI")).connect();
});

after(async () => {
  await mongo?.close();
  await cluster?.stop();
});

/** Emails in the cluster's outbox to this run's readers, by address. */
function mailsByReader() {
  const dir = path.join(cluster.dir, "outbox");
  const counts = new Map();
  if (!existsSync(dir)) return counts;
  for (const name of readdirSync(dir)) {
    let text;
    try {
      text = readFileSync(path.join(dir, name), "utf8");
    } catch {
      continue;
    }
    const to = /^To: .*?(reader-[a-z0-9]+-\d+@example\.com)/im.exec(text.split(/\r?\n\r?\n/)[0]);
    if (to && to[1].includes(RUN)) counts.set(to[1].toLowerCase(), (counts.get(to[1].toLowerCase()) ?? 0) + 1);
  }
  return counts;
}

const total = (counts) => [...counts.values()].reduce((x, y) => x + y, 0);

test("a node killed mid-send is taken over by the other when its lease expires: each follower gets the post once", { timeout: 240_000 }, async (t) => {
  await b.stop();
  const author = await a.signup("Author");
  const db = mongo.db(cluster.db);
  const now = new Date();
  const users = [];
  const follows = [];
  for (let i = 0; i < FOLLOWERS; i += 1) {
    const id = new ObjectId();
    users.push({ _id: id, name: `Reader ${i}`, email: `reader-${RUN}-${i}@example.com`, role: "user", isAccountVerified: true, createdAt: now, updatedAt: now });
    follows.push({ followerId: id, followeeId: new ObjectId(author.id), createdAt: now });
  }
  await db.collection("users").insertMany(users);
  await db.collection("follows").insertMany(follows);

  const res = await a.api(
    "POST",
    "/post/post-create",
    { title: `Across nodes ${RUN}`, blocks: [{ id: "p1", type: "paragraph", data: { text: "Once each." } }] },
    author.token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const postId = res.body.post._id;

  // Kill A once some emails went out and before all did; then start B.
  let sent = 0;
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(20)) {
    sent = total(mailsByReader());
    if (sent >= 50) break;
  }
  assert.ok(sent >= 50 && sent < FOLLOWERS, `killed mid-send (${sent} sent)`);
  await a.stop("SIGKILL");
  const atKill = total(mailsByReader());
  await b.start();

  // Node B takes the post over once A's lease has expired, and finishes it.
  let figures;
  for (const until = Date.now() + LEASE_MS + 90_000; Date.now() < until; await sleep(250)) {
    const r = await b.api("GET", `/post/delivery/${postId}`, undefined, author.token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    figures = r.body;
    if (figures.done) break;
  }
  assert.equal(figures?.done, true, `finished: ${JSON.stringify(figures)}`);

  const mails = mailsByReader();
  assert.ok(total(mails) > atKill, "node B went on sending");
  const twice = [...mails.entries()].filter(([, n]) => n > 1);
  assert.deepEqual(twice, [], "nobody got the post twice");
  assert.equal(figures.emailsSent + figures.emailsFailed, FOLLOWERS, JSON.stringify(figures));
  assert.ok(figures.emailsFailed <= IN_FLIGHT, `at most one chunk in doubt: ${JSON.stringify(figures)}`);
  assert.ok(mails.size >= figures.emailsSent, `every email counted as sent is in the outbox (${mails.size})`);
  assert.ok(mails.size <= FOLLOWERS, "only this run's readers");

  // Every follower is notified once (a notice's id is made of the post's and the reader's).
  const notices = await db
    .collection("notifications")
    .aggregate([{ $match: { postId: new ObjectId(postId), type: "new_post" } }, { $group: { _id: "$userId", n: { $sum: 1 } } }])
    .toArray();
  assert.equal(notices.length, FOLLOWERS, "each follower has the notice");
  assert.ok(notices.every((d) => d.n === 1), "and only once");
  assert.equal(figures.notices, FOLLOWERS, JSON.stringify(figures));
  t.diagnostic(`emails when A was killed: ${atKill}; in the end ${total(mails)} in the outbox, ${figures.emailsSent} sent, ${figures.emailsFailed} recorded as interrupted`);
});

// FerretDB's floor in the mail benchmark (scripts/bench mail): the new-post worker's database
// writes for N emails with nothing else running (no server, no SMTP), one chunk of 32 at a time
// as the worker does them: the announcement's lease and in-flight ids (one findAndModify by
// _id), the chunk's claims and its email log entries (one insertMany each, documents of their
// size), and the chunk taken out of flight and counted (one findAndModify by _id). Prints one
// JSON line. Environment: URI, N.
'use strict';
const path = require('path');
const { MongoClient, ObjectId } = require(path.join(__dirname, '..', 'api-reference', 'node_modules', 'mongodb'));
const CHUNK = 32;
(async () => {
  const N = Number(process.env.N || 10000);
  const c = new MongoClient(process.env.URI); await c.connect();
  const db = c.db('bench_floor');
  for (const name of ['announcements', 'claims', 'logs']) await db.collection(name).drop().catch(() => {});
  const announcements = db.collection('announcements');
  const claims = db.collection('claims');
  const logs = db.collection('logs');
  await claims.createIndex({ postId: 1, channel: 1, to: 1 }, { unique: true });
  const post = new ObjectId();
  await announcements.insertOne({ _id: post, inFlight: [], emailsSent: 0, emailsFailed: 0 });
  const body = 'x'.repeat(1500);
  const s = Date.now();
  for (let done = 0; done < N; done += CHUNK) {
    const ids = Array.from({ length: Math.min(CHUNK, N - done) }, () => new ObjectId());
    await announcements.findOneAndUpdate({ _id: post }, { $set: { leaseUntil: new Date(Date.now() + 30000) }, $push: { inFlight: { $each: ids } } });
    await claims.insertMany(ids.map((id) => ({ _id: id, postId: post, channel: 'email', to: `reader-${id}@bench.test`, createdAt: new Date(), owner: 'bench', recipient: 'follower', recipientId: id, full: false })), { ordered: false });
    await logs.insertMany(ids.map((id) => ({ _id: id, email: `reader-${id}@bench.test`, type: 'new_post', subject: 'A post', success: true, attempts: 1, stopEmailAttempts: false, body, createdAt: new Date() })), { ordered: false });
    await announcements.findOneAndUpdate({ _id: post }, { $pullAll: { inFlight: ids }, $inc: { emailsSent: ids.length } });
  }
  const seconds = (Date.now() - s) / 1000;
  console.log(JSON.stringify({ n: N, chunk: CHUNK, seconds, rate: N / seconds }));
  await c.close();
})().catch((e) => { console.error(e); process.exit(1); });

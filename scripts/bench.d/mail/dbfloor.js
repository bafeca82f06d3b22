// FerretDB's raw rates in the mail benchmark (scripts/bench mail): N documents of the size of an
// email log entry inserted one by one, then each looked up by _id, then each updated by _id (the
// worker's writes per email are of these kinds). Prints one JSON line. Environment: URI, N.
'use strict';
const path = require('path');
const { MongoClient, ObjectId } = require(path.join(__dirname, '..', 'api-reference', 'node_modules', 'mongodb'));
(async () => {
  const N = Number(process.env.N || 10000);
  const c = new MongoClient(process.env.URI); await c.connect();
  const col = c.db('bench_floor').collection('d'); await col.drop().catch(() => {});
  const body = 'x'.repeat(1500);
  const ids = Array.from({ length: N }, () => new ObjectId());
  let s = Date.now();
  for (const id of ids) await col.insertOne({ _id: id, email: `reader-${id}@bench.test`, kind: 'new_post', subject: 'A post', success: true, body, createdAt: new Date() });
  const insert = (Date.now() - s) / 1000;
  s = Date.now(); for (const id of ids) await col.findOne({ _id: id }); const find = (Date.now() - s) / 1000;
  s = Date.now(); for (const id of ids) await col.updateOne({ _id: id, success: true }, { $set: { status: 'sent', settledAt: new Date() } }); const update = (Date.now() - s) / 1000;
  console.log(JSON.stringify({ n: N, insert_s: insert, insert_rate: N / insert, find_by_id_rate: N / find, update_by_id_rate: N / update }));
  await c.close();
})().catch((e) => { console.error(e); process.exit(1); });

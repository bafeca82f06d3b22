// A store written by FerretDB as published is upgraded in place by the patched FerretDB the scripts
// run (scripts/ferretdb/index-pushdown.patch): when it opens the store, every index is created
// again on the expression its queries use, one index per transaction. Killed (SIGKILL) in the
// middle of that upgrade (the time a whole upgrade takes is measured first on a copy of the
// store, and the kills land at fractions of it), the store opens again, finishes it, and has lost
// or doubled nothing: the same documents, unique indexes still refusing duplicates, lookups served
// by the indexes, and a later start that finds nothing left to do.
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { MongoClient, ObjectId } from 'mongodb';
import { Ferret, LONG, figure, sleep } from './lib.js';

const LIKES = LONG ? 200_000 : 40_000;
const USERS = LONG ? 40_000 : 8_000;
// Kills at these fractions of the time a whole upgrade takes.
const KILL_AT = [0.15, 0.35, 0.55, 0.75, 0.95];
// Indexes the store holds: the `_id` index of each collection and the three declared below.
const INDEXES = 5;

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the chaos suite through scripts/test`);
  return v;
}

async function withClient(ferret, fn) {
  const client = new MongoClient(ferret.uri, { serverSelectionTimeoutMS: 30_000 });
  await client.connect();
  try {
    return await fn(client.db('upgrade'));
  } finally {
    await client.close();
  }
}

/** SQLite's plan for a find, as the store's `explain` reports it. */
async function plan(db, collection, filter) {
  const answer = await db.command({ explain: { find: collection, filter }, verbosity: 'queryPlanner' });
  return answer.queryPlanner.Plan.join(' | ');
}

const upgrades = (ferret) =>
  readFileSync(ferret.logPath, 'utf8').split('\n').filter((l) => l.includes('Index recreated'));

let ferret;
const ids = {};

describe('the store upgraded in place', () => {
  before(async () => {
    ferret = await new Ferret('upgrade-db', { bin: need('FERRETDB_PUBLISHED_BIN') }).start();
    await withClient(ferret, async (db) => {
      await db.collection('likes').createIndex({ userId: 1, postId: 1 }, { unique: true, name: 'user_post_unique' });
      await db.collection('likes').createIndex({ postId: 1, createdAt: -1 }, { name: 'post_created' });
      await db.collection('users').createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
      const users = Array.from({ length: USERS }, () => new ObjectId());
      for (let start = 0; start < USERS; start += 2000) {
        await db.collection('users').insertMany(
          users.slice(start, start + 2000).map((_id, k) => ({ _id, email: `reader-${start + k}@example.com`, name: 'Reader' })),
        );
      }
      for (let start = 0; start < LIKES; start += 5000) {
        const batch = [];
        for (let n = start; n < Math.min(LIKES, start + 5000); n += 1) {
          batch.push({ _id: new ObjectId(), userId: users[n % USERS], postId: `post-${Math.floor(n / USERS)}`, createdAt: new Date() });
        }
        await db.collection('likes').insertMany(batch, { ordered: false });
      }
      ids.like = await db.collection('likes').findOne({}, { skip: LIKES - 1 });
      // As published, FerretDB does not use its `_id` index: the store to upgrade.
      assert.match(await plan(db, 'likes', { _id: ids.like._id }), /SCAN/);
    });
    await ferret.kill();
  });

  after(async () => {
    await ferret?.kill();
  });

  it('survives kills during the upgrade and loses or doubles nothing', async () => {
    // How long a whole upgrade takes, on a copy of the store.
    const probe = new Ferret('upgrade-probe', { bin: need('FERRETDB_BIN') });
    cpSync(ferret.dir, probe.dir, { recursive: true });
    let started = performance.now();
    await probe.start();
    const whole = performance.now() - started;
    await probe.kill();
    assert.equal(upgrades(probe).length, INDEXES, 'the probe upgraded every index');
    figure(`store upgrade: ${INDEXES} indexes over ${LIKES} likes and ${USERS} users, ms`, whole);

    ferret.bin = need('FERRETDB_BIN');
    const doneAtKill = [];
    for (const fraction of KILL_AT) {
      await ferret.launch();
      await sleep(whole * fraction);
      await ferret.kill();
      doneAtKill.push(upgrades(ferret).length);
    }
    assert.ok(
      doneAtKill.some((n) => n > 0 && n < INDEXES),
      `no kill landed in the middle of the upgrade (indexes recreated by each kill: ${doneAtKill})`,
    );
    started = performance.now();
    await ferret.start();
    figure(`store upgrade: start after ${KILL_AT.length} kills, ms`, performance.now() - started);

    await withClient(ferret, async (db) => {
      assert.equal(await db.collection('likes').countDocuments({}), LIKES, 'likes after the upgrade');
      assert.equal(await db.collection('users').countDocuments({}), USERS, 'users after the upgrade');
      const distinct = await db.collection('likes').distinct('_id');
      assert.equal(distinct.length, LIKES, 'no like stored twice');

      // Served by the indexes now.
      assert.match(await plan(db, 'likes', { _id: ids.like._id }), /SEARCH .* USING INDEX/);
      assert.match(await plan(db, 'likes', { userId: ids.like.userId, postId: ids.like.postId }), /USING INDEX/);
      assert.match(await plan(db, 'users', { email: 'reader-7@example.com' }), /USING INDEX/);
      assert.deepEqual(
        (await db.collection('likes').findOne({ userId: ids.like.userId, postId: ids.like.postId }))._id,
        ids.like._id,
      );

      // Unique indexes still refuse duplicates.
      await assert.rejects(
        db.collection('likes').insertOne({ userId: ids.like.userId, postId: ids.like.postId }),
        (e) => e.code === 11000,
      );
      await assert.rejects(db.collection('users').insertOne({ email: 'reader-7@example.com' }), (e) => e.code === 11000);
    });

    // A later start has nothing left to upgrade.
    await ferret.kill();
    const before = upgrades(ferret).length;
    assert.ok(before > 0, 'the upgrade recreated the indexes');
    await ferret.start();
    await withClient(ferret, async (db) => {
      assert.equal(await db.collection('likes').countDocuments({}), LIKES);
    });
    assert.equal(upgrades(ferret).length, before, 'a second start recreated indexes again');
  });
});

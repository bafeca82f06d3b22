// A tip paid through one node of a two-node cluster reaches the writer's open tabs on both nodes
// as one `tipReceived` each ({tipId, postId, amount, currency, from, message}), with one stored
// notification, however often the reader's request is repeated (a double click, a retry through
// the other node); nobody else hears of it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { MongoClient, ObjectId } from "mongodb";
import { join, required, seen, sleep, startCluster, waitFor } from "./cluster-helpers.js";

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

test("a tip through node B reaches the writer's tabs on both nodes once each", async () => {
  const writer = await a.signup("Writer");
  const reader = await b.signup("Ana");
  const bystander = await a.signup("Bystander");
  // An administrator's grant makes the writer eligible (as `eligible_author` in the API tests).
  await mongo
    .db(cluster.db)
    .collection("users")
    .updateOne(
      { _id: new ObjectId(writer.id) },
      { $set: { isEligibleForSubscription: true, bypassSubscriptionCriteria: true } },
    );
  const created = await a.api(
    "POST",
    "/post/post-create",
    { title: "Tipped across nodes", blocks: [{ id: "p1", type: "paragraph", data: { text: "Thanks" } }] },
    writer.token,
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const post = created.body.post;

  const tabA = await a.connect({ token: writer.token });
  const tabB = await b.connect({ token: writer.token, transports: ["polling"] });
  const other = await b.connect({ token: bystander.token });
  try {
    assert.equal(await join(tabA, writer.id), true);
    assert.equal(await join(tabB, writer.id), true);
    assert.equal(await join(other, bystander.id), true);

    const body = { postId: post._id, amount: 500, currency: "usd", message: "Thanks!", public: true };
    const send = (node) =>
      fetch(`${node.url}/api/tips`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${reader.token}`,
          "idempotency-key": "cluster-tip-1",
        },
        body: JSON.stringify(body),
      });
    // A double click on node B and a retry through node A.
    const answers = await Promise.all([send(b), send(b), send(a)]);
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 201]);
    const tips = await Promise.all(answers.map((r) => r.json()));
    const tipId = tips[0].tip.id;
    assert.ok(tips.every((t) => t.tip.id === tipId));

    const expected = {
      tipId,
      postId: post._id,
      amount: 500,
      currency: "usd",
      from: { id: reader.id, name: "Ana" },
      message: "Thanks!",
    };
    for (const tab of [tabA, tabB]) {
      const [event] = await waitFor(tab, "tipReceived");
      assert.deepEqual(event, expected);
      const [notice] = await waitFor(tab, "newNotification", (n) => n.type === "tip");
      assert.equal(notice.content, "Ana tipped $5 on 'Tipped across nodes': 'Thanks!'");
    }
    await sleep(500);
    for (const tab of [tabA, tabB]) {
      assert.equal(seen(tab, "tipReceived").length, 0, "one tipReceived per tab");
      assert.equal(seen(tab, "newNotification").length, 0, "one notification per tab");
    }
    assert.equal(seen(other, "tipReceived").length, 0, "nobody else hears of it");
  } finally {
    tabA.close();
    tabB.close();
    other.close();
  }
});

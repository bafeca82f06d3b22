// The guest cache across two server processes over one database and one Redis: a guest's home
// list and post, served from node B's memory, reflect a write made through node A as soon as
// B hears of it through Redis — well before an answer's own age limit (set to its longest,
// 900 ms, so that an invalidation that did not arrive would show).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { grantAdmin, sleep, startCluster } from "./cluster-helpers.js";

/** How long after A answers a write B may still serve the old answer (pub/sub, not the age limit). */
const HEARD_WITHIN_MS = 400;
let cluster;
let a;
let b;

before(async () => {
  cluster = await startCluster({ nodes: 2, env: { PRESSROOM__GUEST_CACHE__MAX_AGE_MS: "900" } });
  [a, b] = cluster.nodes;
});

after(async () => {
  await cluster?.stop();
});

/** GETs `route` on `node` as a guest twice (the second from the cache); returns the body. */
async function warm(node, route) {
  await node.api("GET", route);
  const res = await node.api("GET", route);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Polls `route` on `node` until `check(res)` holds; how long that took, in ms. */
async function until(node, route, check) {
  const started = Date.now();
  for (;;) {
    const res = await node.api("GET", route);
    if (check(res)) return Date.now() - started;
    assert.ok(Date.now() - started < 5_000, `${route} never changed on node ${node.name}`);
    await sleep(10);
  }
}

const titles = (res) => (res.body?.posts ?? []).map((p) => p.title);

test("a post created, edited, blocked and deleted on node A shows so on node B at once", async () => {
  const author = await a.signup("Author");
  const boss = await a.signup("Admin");
  grantAdmin(cluster, boss.email);
  const adminToken = boss.token;

  // Created.
  await warm(b, "/public/posts");
  let res = await a.api(
    "POST",
    "/post/post-create",
    { title: "Made on node A", blocks: [{ id: "p1", type: "paragraph", data: { text: "Across" } }] },
    author.token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const post = res.body.post;
  let took = await until(b, "/public/posts", (r) => titles(r).includes("Made on node A"));
  assert.ok(took < HEARD_WITHIN_MS, `created: node B served the old list for ${took} ms`);

  // Edited.
  const path = `/public/post/${post.slug}`;
  await warm(b, path);
  res = await a.api("PATCH", `/post/update/${post.slug}`, { title: "Edited on node A" }, author.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  took = await until(b, path, (r) => r.body?.post?.title === "Edited on node A");
  assert.ok(took < HEARD_WITHIN_MS, `edited: node B served the old post for ${took} ms`);

  // Blocked by an administrator.
  await warm(b, path);
  res = await a.api("PATCH", `/admin/posts/block/${post._id}`, {}, adminToken);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  took = await until(b, path, (r) => r.status === 404);
  assert.ok(took < HEARD_WITHIN_MS, `blocked: node B served the post for ${took} ms`);
  res = await a.api("PATCH", `/admin/posts/block/${post._id}`, {}, adminToken);
  assert.equal(res.status, 200);
  await until(b, path, (r) => r.status === 200);

  // Deleted.
  await warm(b, path);
  await warm(b, "/public/posts");
  res = await a.api("DELETE", `/post/delete/${post._id}`, undefined, author.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  took = await until(b, path, (r) => r.status === 404);
  assert.ok(took < HEARD_WITHIN_MS, `deleted: node B served the post for ${took} ms`);
  assert.deepEqual(titles(await b.api("GET", "/public/posts")), []);
});

// Post events over the real server: postCountsUpdated, postBlockToggled(postId, blocked),
// newAppeal(postId, postTitle) and appealDecided(appealId, status) for administrators only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, grantAdmin, join, record, signup, sleep, waitFor } from "./product-helpers.js";

async function createPost(token, title) {
  const res = await api(
    "POST",
    "/post/post-create",
    { title, blocks: [{ id: "p1", type: "paragraph", data: { text: "Live counts" } }] },
    token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.post;
}

test("creating and deleting a post sends postCountsUpdated to every connected client, guests included", async () => {
  const author = await signup("Author");
  const guest = await connect({ transports: ["websocket"] });
  try {
    const post = await createPost(author.token, "Counts go up");
    await waitFor(guest, "postCountsUpdated");
    const res = await api("DELETE", `/post/delete/${post._id}`, undefined, author.token);
    assert.equal(res.status, 200);
    await waitFor(guest, "postCountsUpdated");
  } finally {
    guest.close();
  }
});

test("an administrator's block reaches everyone as postBlockToggled, and the author's appeal reaches administrators only", async () => {
  const author = await signup("Appealing Author");
  const admin = await signup("Moderator");
  grantAdmin(admin.email);
  const post = await createPost(author.token, "Please reconsider");

  const adminSocket = await connect({ token: admin.token, transports: ["websocket"] });
  const authorSocket = await connect({ token: author.token, transports: ["polling"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    assert.equal(await join(adminSocket, "adminRoom"), true);
    assert.equal(await join(authorSocket, author.id), true);

    const refused = await api("PATCH", `/admin/posts/block/${post._id}`, undefined, author.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, "Admin access required");

    const blocked = await api("PATCH", `/admin/posts/block/${post._id}`, undefined, admin.token);
    assert.equal(blocked.status, 200);
    assert.equal(blocked.body.blocked, true);
    assert.match(blocked.body.message, /blocked/);
    const [postId, isBlocked] = await waitFor(guest, "postBlockToggled");
    assert.deepEqual([postId, isBlocked], [post._id, true]);
    await waitFor(guest, "postCountsUpdated");

    const appeals = record(authorSocket, "newAppeal");
    const res = await api("POST", `/post/appeal/${post._id}`, { message: "It follows the rules." }, author.token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const args = await waitFor(adminSocket, "newAppeal");
    assert.deepEqual(args, [post._id, "Please reconsider"]);
    const [notification] = await waitFor(adminSocket, "newNotification", (n) => n.type === "appeal");
    assert.equal(notification.content, "It follows the rules.");
    await sleep(300);
    assert.equal(appeals.seen.length, 0, "the author is not in adminRoom");
    assert.equal(guest.received.filter((e) => e.event === "newAppeal").length, 0, "guests hear nothing");

    const restored = await api("PATCH", `/admin/posts/block/${post._id}`, undefined, admin.token);
    assert.equal(restored.body.blocked, false);
    assert.doesNotMatch(restored.body.message, /blocked/);
    const [againId, againBlocked] = await waitFor(guest, "postBlockToggled", (_id, b) => b === false);
    assert.deepEqual([againId, againBlocked], [post._id, false]);
    // Lifting the block settled the pending appeal: administrators hear it, the author is told.
    const decided = await waitFor(adminSocket, "appealDecided");
    assert.deepEqual(decided, [res.body.appeal._id, "accepted"]);
    const [told] = await waitFor(authorSocket, "newNotification", (n) => n.type === "admin");
    assert.equal(told.content, 'Your appeal for "Please reconsider" was accepted: the post is visible again.');
    await sleep(300);
    assert.equal(guest.received.filter((e) => e.event === "appealDecided").length, 0, "guests hear nothing");
  } finally {
    adminSocket.close();
    authorSocket.close();
    guest.close();
  }
});

test("postCountsUpdated carries what each receiver needs: everyone the public count, the author their three, a follower their following count", async () => {
  const author = await signup("Counted Author");
  const follower = await signup("Follower");
  const res = await api("POST", `/follow/${author.id}`, undefined, follower.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const authorSocket = await connect({ token: author.token, transports: ["websocket"] });
  const followerSocket = await connect({ token: follower.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    await createPost(author.token, "Counted");
    const expected = async (path, token) => (await api("GET", `/post/count/${path}`, undefined, token)).body.count;
    const all = await expected("all");
    const [toGuest] = await waitFor(guest, "postCountsUpdated", (c) => c.allPostsCount === all);
    assert.deepEqual(Object.keys(toGuest), ["allPostsCount"]);
    const [toAuthor] = await waitFor(authorSocket, "postCountsUpdated", (c) => c.myPostsCount !== undefined);
    assert.deepEqual(toAuthor, {
      allPostsCount: await expected("all", author.token),
      myPostsCount: await expected("my", author.token),
      followingPostsCount: await expected("following", author.token),
    });
    assert.equal(toAuthor.myPostsCount, 1);
    const [toFollower] = await waitFor(followerSocket, "postCountsUpdated", (c) => c.followingPostsCount !== undefined);
    assert.deepEqual(toFollower, { followingPostsCount: await expected("following", follower.token) });
    assert.equal(toFollower.followingPostsCount, 1);

    // A draft changes nobody's following feed: the follower hears only the public count.
    const heard = record(followerSocket, "postCountsUpdated");
    const draft = await api(
      "POST",
      "/post/post-create",
      { title: "Draft", status: "draft", blocks: [{ id: "p1", type: "paragraph", data: { text: "x" } }] },
      author.token,
    );
    assert.equal(draft.status, 201);
    const [mine] = await waitFor(authorSocket, "postCountsUpdated", (c) => c.myPostsCount === 2);
    assert.equal(mine.followingPostsCount, 1);
    await sleep(300);
    assert.equal(heard.seen.filter(([c]) => c.followingPostsCount !== undefined).length, 0);
  } finally {
    for (const s of [authorSocket, followerSocket, guest]) s.close();
  }
});

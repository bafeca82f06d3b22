// The administrators' live events (actors/src/events.rs): newContactMessage,
// contactMessageReplied, newReport, reportReviewed, reportAcknowledged and operationsSnapshot reach an administrator's
// socket in adminRoom, and never a user's socket (even one that tried to join adminRoom) or a
// guest's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, connect, grantAdmin, join, record, signup, sleep, waitFor } from "./product-helpers.js";

const ADMIN_EVENTS = [
  "newContactMessage",
  "contactMessageReplied",
  "newReport",
  "reportReviewed",
  "reportAcknowledged",
  "operationsSnapshot",
];

test("each administrator event reaches adminRoom and never a user or a guest", async () => {
  const boss = await signup("Moderator");
  grantAdmin(boss.email);
  const author = await signup("Author");
  const reader = await signup("Reader");
  const created = await api(
    "POST",
    "/post/post-create",
    { title: `Reported ${randomUUID()}`, blocks: [{ id: "p1", type: "paragraph", data: { text: "x" } }] },
    author.token,
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const postId = created.body.post._id;

  const adminWs = await connect({ token: boss.token, transports: ["websocket"] });
  const adminPolling = await connect({ token: boss.token, transports: ["polling"] });
  const userSocket = await connect({ token: reader.token, transports: ["websocket"] });
  const authorSocket = await connect({ token: author.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    assert.equal(await join(adminWs, "adminRoom"), true);
    assert.equal(await join(adminPolling, "adminRoom"), true);
    assert.equal(await join(userSocket, reader.id), true);
    assert.equal(await join(userSocket, "adminRoom"), false, "a user cannot join adminRoom");
    assert.equal(await join(authorSocket, author.id), true);
    const outsiders = [userSocket, authorSocket, guest].flatMap((s) => ADMIN_EVENTS.map((e) => record(s, e)));

    // A guest writes through the contact form.
    const email = `visitor-${randomUUID()}@example.com`;
    const subject = `Hello ${randomUUID()}`;
    const contact = api("POST", "/admin/contact", { name: "Visitor", email, subject, message: "Hi there" });
    const [[message]] = await Promise.all(
      [adminWs, adminPolling].map((s) => waitFor(s, "newContactMessage", (m) => m.subject === subject)),
    );
    assert.equal((await contact).status, 201);
    assert.equal(message.email, email);
    assert.equal(message.isHandled, false);

    // An administrator replies to it.
    const replied = waitFor(adminWs, "contactMessageReplied", (r) => r.messageId === message._id);
    const reply = await api("POST", `/admin/reply-contact/${message._id}`, { subject: "Re", message: "Answer" }, boss.token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const [repliedEvent] = await replied;
    assert.equal(repliedEvent.isHandled, true);
    assert.equal(repliedEvent.repliedBy, boss.id);

    // A reader reports a post.
    const reported = waitFor(adminWs, "newReport", (r) => r.post._id === postId);
    const rep = await api("POST", "/admin/reports", { postId, reason: "spam", details: "Ads" }, reader.token);
    assert.equal(rep.status, 201, JSON.stringify(rep.body));
    const [newReport] = await reported;
    const reportId = rep.body.report._id;
    assert.equal(newReport._id, reportId);
    assert.equal(newReport.reporter._id, reader.id);
    assert.equal(newReport.author._id, author.id);

    // An administrator reviews it and forwards it; the author is told in their own room.
    const reviewed = waitFor(adminWs, "reportReviewed", (r) => r.reportId === reportId);
    const toAuthor = waitFor(authorSocket, "newNotification", (n) => n.navigateTo === `/acknowledge/${reportId}`);
    const review = await api("PATCH", `/admin/reports/${reportId}`, { forwardToAuthor: true }, boss.token);
    assert.equal(review.status, 200);
    assert.deepEqual((await reviewed)[0], { reportId, isReviewed: true, forwardedToAuthor: true });
    await toAuthor;

    // The author acknowledges it.
    const acknowledged = waitFor(adminPolling, "reportAcknowledged", (r) => r.reportId === reportId);
    const ack = await api("POST", `/admin/acknowledge-report/${reportId}`, undefined, author.token);
    assert.equal(ack.status, 200);
    const [ackEvent] = await acknowledged;
    assert.equal(ackEvent.isAcknowledged, true);
    assert.ok(ackEvent.acknowledgedAt);

    // Every few seconds each node sends administrators its operating figures.
    const [figures] = await waitFor(adminWs, "operationsSnapshot", (s) => typeof s.node === "string");
    assert.equal(figures.db, "ok");
    assert.ok(figures.sockets >= 5, JSON.stringify(figures));
    assert.ok(figures.onlineUsers >= 3, JSON.stringify(figures));
    assert.ok(Array.isArray(figures.jobs) && figures.jobs.some((j) => j.name === "scheduled-publishing"), JSON.stringify(figures.jobs));

    await sleep(300);
    const leaked = outsiders.flatMap((r) => r.seen);
    assert.deepEqual(leaked, [], "no administrator event reached a user or a guest");
  } finally {
    for (const s of [adminWs, adminPolling, userSocket, authorSocket, guest]) s.close();
  }
});

test("a demoted administrator's sockets are closed, so they leave adminRoom at once", async () => {
  const boss = await signup("Boss");
  grantAdmin(boss.email);
  const deputy = await signup("Deputy");
  grantAdmin(deputy.email);
  const deputySocket = await connect({ token: deputy.token, transports: ["websocket"] });
  try {
    assert.equal(await join(deputySocket, "adminRoom"), true);
    const closed = new Promise((resolve) => deputySocket.once("disconnect", resolve));
    const res = await api("PATCH", `/admin/users/role/${deputy.id}`, undefined, boss.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.doesNotMatch(res.body.message, /admin/);
    await closed;
    // Their next connection is an ordinary user's.
    const again = await connect({ token: deputy.token, transports: ["websocket"] });
    try {
      assert.equal(await join(again, "adminRoom"), false);
    } finally {
      again.close();
    }
  } finally {
    deputySocket.close();
  }
});

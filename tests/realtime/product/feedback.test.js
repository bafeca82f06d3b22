// Feedback prompts over the real server: showFeedbackPrompt(message) reaches that user's tabs only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, grantAdmin, record, signup, sleep, waitFor } from "./product-helpers.js";

test("a manual prompt reaches every tab of that user with the default text, and nobody else", async () => {
  const boss = await signup("Admin");
  grantAdmin(boss.email);
  const user = await signup();
  const other = await signup();
  const tabs = [
    await connect({ token: user.token, transports: ["websocket"] }),
    await connect({ token: user.token, transports: ["polling"] }),
  ];
  const otherTab = await connect({ token: other.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    const otherSaw = record(otherTab, "showFeedbackPrompt");
    const guestSaw = record(guest, "showFeedbackPrompt");
    const prompts = tabs.map((t) => waitFor(t, "showFeedbackPrompt"));
    const res = await api("POST", `/user/feedback/manual/${user.id}`, {}, boss.token);
    assert.equal(res.status, 200);
    for (const args of await Promise.all(prompts)) assert.deepEqual(args, ["We'd love your feedback!"]);

    const custom = waitFor(tabs[0], "showFeedbackPrompt", (m) => m === "How is the editor?");
    await api("POST", `/user/feedback/manual/${user.id}`, { message: "How is the editor?" }, boss.token);
    await custom;
    await sleep(300);
    assert.equal(otherSaw.seen.length, 0);
    assert.equal(guestSaw.seen.length, 0);
  } finally {
    for (const s of [...tabs, otherTab, guest]) s.close();
  }
});

test("only administrators send prompts", async () => {
  const user = await signup();
  const res = await api("POST", `/user/feedback/manual/${user.id}`, {}, user.token);
  assert.equal(res.status, 403);
  assert.equal(res.body.message, "Admin access required");
});

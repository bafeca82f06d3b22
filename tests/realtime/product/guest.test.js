// Guest visits over the real server: counted per guest id, and told to administrators only,
// debounced to one event per guest per second.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, connect, grantAdmin, join, record, signup, sleep, waitFor } from "./product-helpers.js";

test("a burst of visits is one guestVisitUpdate with the latest count, for administrators only", async () => {
  const boss = await signup("Admin");
  grantAdmin(boss.email);
  const user = await signup();
  const adminSocket = await connect({ token: boss.token, transports: ["websocket"] });
  const userSocket = await connect({ token: user.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    assert.equal(await join(adminSocket, "adminRoom"), true);
    // Guest ids are issued by the server: the first visit gets one, the next ones send it.
    const issued = await api("POST", "/public/guest/visit", {});
    assert.equal(issued.status, 200);
    const guestId = issued.body.guest.guestId;
    const mine = (v) => v.guestId === guestId;
    const adminSaw = record(adminSocket, "guestVisitUpdate");
    const userSaw = record(userSocket, "guestVisitUpdate");
    const guestSaw = record(guest, "guestVisitUpdate");
    const first = waitFor(adminSocket, "guestVisitUpdate", mine, 4000);
    let last;
    for (let i = 2; i <= 4; i++) {
      const res = await api("POST", "/public/guest/visit", { guestId });
      assert.equal(res.status, 200);
      assert.equal(res.body.guest.guestId, guestId);
      assert.equal(res.body.guest.visitCount, i);
      last = res.body.guest;
    }
    const [visit] = await first;
    assert.deepEqual(visit, last);
    await sleep(1500);
    assert.equal(adminSaw.seen.filter(([v]) => mine(v)).length, 1);
    assert.equal(userSaw.seen.length, 0);
    assert.equal(guestSaw.seen.length, 0);
  } finally {
    for (const s of [adminSocket, userSocket, guest]) s.close();
  }
});

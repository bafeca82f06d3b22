// Banner notices over the real server: everyone (guests too) hears of new, deactivated, expired
// and deleted banners; a dismissal reaches only the dismissing user's tabs; targeting by region.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, api, connect, grantAdmin, record, signup, sleep, waitFor } from "./product-helpers.js";

async function admin() {
  const a = await signup("Admin");
  grantAdmin(a.email);
  return a;
}

async function create(boss, body) {
  const res = await api("POST", "/bannerNotification/create", body, boss.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.notification;
}

async function visibleFrom(ip, token) {
  const headers = { "x-forwarded-for": ip };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${BASE}/api/bannerNotification/get-Notification`, { headers });
  assert.equal(res.status, 200);
  return (await res.json()).notifications.map((b) => b.title);
}

test("a new banner reaches guests and users; deactivation reaches everyone as a bare id", async () => {
  const boss = await admin();
  const user = await signup();
  const guest = await connect({ transports: ["polling"] });
  const member = await connect({ token: user.token, transports: ["websocket"] });
  try {
    const title = `Hello ${Date.now()}`;
    const arrivals = [guest, member].map((s) => waitFor(s, "newBroadcastNotification", (b) => b.title === title));
    const banner = await create(boss, { title, message: "World", region: "global" });
    for (const [b] of await Promise.all(arrivals)) {
      assert.equal(b._id, banner._id);
      assert.equal(b.isActive, true);
      assert.deepEqual(b.dismissedBy, []);
    }
    const gone = [guest, member].map((s) => waitFor(s, "broadcastNotificationDeactivated", (id) => id === banner._id));
    const res = await api("PATCH", `/bannerNotification/deactivate/${banner._id}`, {}, boss.token);
    assert.equal(res.status, 200);
    for (const args of await Promise.all(gone)) assert.deepEqual(args, [banner._id]);
  } finally {
    guest.close();
    member.close();
  }
});

test("a dismissal reaches the user's other tabs only", async () => {
  const boss = await admin();
  const user = await signup();
  const other = await signup();
  const banner = await create(boss, { title: `Dismiss me ${Date.now()}`, message: "m" });
  const tab = await connect({ token: user.token, transports: ["websocket"] });
  const otherTab = await connect({ token: other.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    const otherSaw = record(otherTab, "broadcastNotificationDismissed");
    const guestSaw = record(guest, "broadcastNotificationDismissed");
    const mine = waitFor(tab, "broadcastNotificationDismissed", (id) => id === banner._id);
    const res = await api("PATCH", `/bannerNotification/dismiss/${banner._id}`, {}, user.token);
    assert.equal(res.status, 200);
    assert.deepEqual(await mine, [banner._id]);
    await sleep(300);
    assert.equal(otherSaw.seen.length, 0);
    assert.equal(guestSaw.seen.length, 0);
    const status = await api("GET", `/bannerNotification/dismissed/${banner._id}`, undefined, user.token);
    assert.equal(status.body.dismissed, true);
    const otherStatus = await api("GET", `/bannerNotification/dismissed/${banner._id}`, undefined, other.token);
    assert.equal(otherStatus.body.dismissed, false);
  } finally {
    for (const s of [tab, otherTab, guest]) s.close();
  }
});

test("a non-sticky banner expires on time and everyone is told", async () => {
  const boss = await admin();
  const guest = await connect({ transports: ["websocket"] });
  try {
    const expiresAt = new Date(Date.now() + 1200).toISOString();
    const banner = await create(boss, { title: `Brief ${Date.now()}`, message: "m", expiresAt });
    const started = Date.now();
    const [id] = await waitFor(guest, "broadcastNotificationDeactivated", (x) => x === banner._id, 5000);
    assert.equal(id, banner._id);
    assert.ok(Date.now() - started >= 700, "not before its time");
    assert.ok(!(await visibleFrom("81.2.69.160")).includes(banner.title));
  } finally {
    guest.close();
  }
});

test("banners target global and the caller's region", async () => {
  const boss = await admin();
  const stamp = Date.now();
  await create(boss, { title: `India ${stamp}`, message: "m", region: "IN" });
  await create(boss, { title: `All ${stamp}`, message: "m", region: "global" });
  const fromMumbai = await visibleFrom("49.36.10.20");
  const fromLondon = await visibleFrom("81.2.69.160");
  assert.ok(fromMumbai.includes(`India ${stamp}`) && fromMumbai.includes(`All ${stamp}`));
  assert.ok(!fromLondon.includes(`India ${stamp}`) && fromLondon.includes(`All ${stamp}`));
});

test("deleting all banners is announced to everyone", async () => {
  const boss = await admin();
  const guest = await connect({ transports: ["websocket"] });
  try {
    await create(boss, { title: `Doomed ${Date.now()}`, message: "m" });
    const gone = waitFor(guest, "broadcastNotificationDeletedAll");
    const res = await api("DELETE", "/bannerNotification/delete-all", undefined, boss.token);
    assert.equal(res.status, 200);
    assert.deepEqual(await gone, []);
    assert.deepEqual(await visibleFrom("81.2.69.160"), []);
  } finally {
    guest.close();
  }
});

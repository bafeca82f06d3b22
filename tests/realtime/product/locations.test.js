// Locations over the real server: a user's userLocationUpdate is debounced to one per second and
// reaches the administrators and the people whose follower map shows that user (those the user
// follows) only; invalid updates are ignored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, api, connect, grantAdmin, join, record, signup, sleep, waitFor } from "./product-helpers.js";

test("a burst of updates is pushed once, with the latest position, to admins and the followed author only", async () => {
  const boss = await signup("Admin");
  grantAdmin(boss.email);
  const walker = await signup("Walker");
  // The walker follows the author: the author's follower map shows the walker.
  const author = await signup("Author");
  // Someone who follows the walker has no map with the walker on it.
  const stranger = await signup("Stranger");
  const follow = await api("POST", `/follow/${author.id}`, {}, walker.token);
  assert.ok(follow.status < 300, JSON.stringify(follow.body));
  const reverse = await api("POST", `/follow/${walker.id}`, {}, stranger.token);
  assert.ok(reverse.status < 300, JSON.stringify(reverse.body));

  const adminSocket = await connect({ token: boss.token, transports: ["websocket"] });
  const walkerSocket = await connect({ token: walker.token, transports: ["websocket"] });
  const authorSocket = await connect({ token: author.token, transports: ["websocket"] });
  const strangerSocket = await connect({ token: stranger.token, transports: ["websocket"] });
  try {
    assert.equal(await join(adminSocket, "adminRoom"), true);
    const mine = (l) => l.userId === walker.id;
    const adminSaw = record(adminSocket, "userLocationUpdate");
    const authorSaw = record(authorSocket, "userLocationUpdate");
    const strangerSaw = record(strangerSocket, "userLocationUpdate");
    const first = waitFor(adminSocket, "userLocationUpdate", mine, 4000);
    for (let i = 1; i <= 5; i++) {
      walkerSocket.emit("userLocationUpdate", { userId: walker.id, lat: 10 + i, lon: 70 + i, city: "Pune" });
      await sleep(50);
    }
    const [loc] = await first;
    assert.deepEqual(loc.coordinates, { lat: 15, lon: 75 });
    assert.equal(loc.city, "Pune");
    assert.equal(loc.country, "Unknown");
    await sleep(1500);
    assert.equal(adminSaw.seen.filter(([l]) => mine(l)).length, 1, "one push per burst");
    assert.equal(authorSaw.seen.filter(([l]) => mine(l)).length, 1, "the author the walker follows hears it");
    assert.equal(strangerSaw.seen.length, 0, "the walker's own follower does not");

    // Stored: the admin list has it.
    const list = await api("GET", "/user/locations?limit=500", undefined, boss.token);
    const stored = list.body.locations.find((l) => l.userId === walker.id);
    assert.deepEqual(stored.coordinates, { lat: 15, lon: 75 });
    // And the author sees it on their follower map.
    const map = await api("GET", "/follow/follower-locations", undefined, author.token);
    assert.equal(map.status, 200);
    assert.deepEqual(map.body.list.find((l) => l.userId === walker.id)?.coordinates, { lat: 15, lon: 75 });
  } finally {
    for (const s of [adminSocket, walkerSocket, authorSocket, strangerSocket]) s.close();
  }
});

test("updates without userId, lat or lon, or for someone else, are ignored", async () => {
  const boss = await signup("Admin");
  grantAdmin(boss.email);
  const user = await signup();
  const victim = await signup();
  const adminSocket = await connect({ token: boss.token, transports: ["websocket"] });
  const userSocket = await connect({ token: user.token, transports: ["websocket"] });
  const guest = await connect({ transports: ["websocket"] });
  try {
    assert.equal(await join(adminSocket, "adminRoom"), true);
    const saw = record(adminSocket, "userLocationUpdate");
    userSocket.emit("userLocationUpdate", { lat: 1, lon: 2 });
    userSocket.emit("userLocationUpdate", { userId: user.id, lon: 2 });
    userSocket.emit("userLocationUpdate", { userId: user.id, lat: 1 });
    userSocket.emit("userLocationUpdate", { userId: victim.id, lat: 1, lon: 2 });
    userSocket.emit("userLocationUpdate", { userId: user.id, lat: 95, lon: 2 });
    guest.emit("userLocationUpdate", { userId: victim.id, lat: 1, lon: 2 });
    await sleep(1600);
    const relevant = saw.seen.filter(([l]) => l.userId === user.id || l.userId === victim.id);
    assert.equal(relevant.length, 0);
  } finally {
    for (const s of [adminSocket, userSocket, guest]) s.close();
  }
});

test("the map outlines are FeatureCollections from Natural Earth", async () => {
  const india = await (await fetch(`${BASE}/api/geojson/india-border`)).json();
  assert.equal(india.type, "FeatureCollection");
  assert.equal(india.features.length, 1);
  assert.equal(india.features[0].properties.name, "India");
  const world = await (await fetch(`${BASE}/api/geojson/world`)).json();
  assert.equal(world.type, "FeatureCollection");
  assert.ok(world.features.length > 150);
});

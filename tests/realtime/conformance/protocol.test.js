// Wire-level checks of the conformance server against the Engine.IO v4 and Socket.IO v5
// protocol documents: handshakes, refusals, heartbeat, close, upgrade, payloads, packets.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  rawSocket,
  settlesWithin,
  sleep,
  startServer,
  CONNECT_TIMEOUT,
  MAX_PAYLOAD,
  PING_INTERVAL,
  PING_TIMEOUT,
} from "../helpers.js";

const SLACK_MS = 150;
let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server.stop();
});

const eio = (path, query = "") => `${server.url}${path}/?EIO=4&transport=polling${query}`;

async function openPolling(path) {
  const response = await fetch(eio(path));
  const body = await response.text();
  return JSON.parse(body.substring(1)).sid;
}

/**
 * Polls `sid` until a poll brings packets other than pings, answering the pings (a slow
 * machine may let a ping interval pass between two requests); returns those packets.
 */
async function pollData(path, sid) {
  for (;;) {
    const poll = await fetch(eio(path, `&sid=${sid}`));
    assert.equal(poll.status, 200);
    const packets = (await poll.text()).split("\x1e");
    if (packets.includes("2")) {
      const pong = await fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "3" });
      assert.equal(await pong.text(), "ok");
    }
    const data = packets.filter((packet) => packet !== "2");
    if (data.length) return data;
  }
}

/** Polls `sid` until packets starting with each of `wanted` have arrived; returns them all. */
async function pollUntil(path, sid, wanted) {
  const seen = [];
  while (!wanted.every((prefix) => seen.some((packet) => packet.startsWith(prefix)))) {
    seen.push(...(await pollData(path, sid)));
  }
  return seen;
}

/**
 * A polling session that a Socket.IO server keeps past connectTimeout: at /socket.io it joins
 * the main namespace, as every Socket.IO client does right after the handshake.
 */
async function openLastingPolling(path) {
  const sid = await openPolling(path);
  if (path === "/socket.io") {
    const push = await fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "40" });
    assert.equal(await push.text(), "ok");
    await pollUntil(path, sid, ["40{", '42["auth"']);
  }
  return sid;
}

async function errorOf(response) {
  return { status: response.status, body: await response.json() };
}

for (const path of ["/engine.io", "/socket.io"]) {
  describe(`Engine.IO handshake at ${path}`, () => {
    it("opens a polling session with the configured values", async () => {
      const response = await fetch(eio(path));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("access-control-allow-origin"), "*");
      const body = await response.text();
      assert.ok(body.startsWith("0"), body);
      const open = JSON.parse(body.substring(1));
      assert.deepEqual(Object.keys(open).sort(), [
        "maxPayload",
        "pingInterval",
        "pingTimeout",
        "sid",
        "upgrades",
      ]);
      assert.equal(typeof open.sid, "string");
      assert.deepEqual(open.upgrades, ["websocket"]);
      assert.equal(open.pingInterval, PING_INTERVAL);
      assert.equal(open.pingTimeout, PING_TIMEOUT);
      assert.equal(open.maxPayload, MAX_PAYLOAD);
    });

    it("opens a websocket session with no upgrades", async () => {
      const ws = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket`);
      const handshake = await ws.next();
      assert.ok(handshake.startsWith("0"));
      assert.deepEqual(JSON.parse(handshake.substring(1)).upgrades, []);
      ws.close();
    });

    it("refuses bad requests with the reference error bodies", async () => {
      const cases = [
        [`${path}/?transport=polling`, "GET", 400, 5, "Unsupported protocol version"],
        [`${path}/?EIO=abc&transport=polling`, "GET", 400, 5, "Unsupported protocol version"],
        [`${path}/?EIO=4`, "GET", 400, 0, "Transport unknown"],
        [`${path}/?EIO=4&transport=abc`, "GET", 400, 0, "Transport unknown"],
        [`${path}/?EIO=4&transport=polling`, "POST", 400, 2, "Bad handshake method"],
        [`${path}/?EIO=4&transport=polling`, "PUT", 400, 2, "Bad handshake method"],
        [`${path}/?EIO=4&transport=polling&sid=unknown`, "GET", 400, 1, "Session ID unknown"],
        [`${path}/?EIO=4&transport=websocket`, "GET", 400, 3, "Bad request"],
      ];
      for (const [url, method, status, code, message] of cases) {
        const response = await fetch(server.url + url, { method });
        assert.deepEqual(
          await errorOf(response),
          { status, body: { code, message } },
          `${method} ${url}`,
        );
      }
    });

    it("closes websockets with a bad EIO or transport", async () => {
      for (const query of ["transport=websocket", "EIO=abc&transport=websocket", "EIO=4", "EIO=4&transport=abc"]) {
        const ws = rawSocket(`${server.wsUrl}${path}/?${query}`);
        assert.ok(await settlesWithin(ws.closed, 2_000), query);
      }
    });

    it("answers CORS preflight requests", async () => {
      const response = await fetch(eio(path), {
        method: "OPTIONS",
        headers: { origin: "http://example.test", "access-control-request-headers": "content-type" },
      });
      assert.equal(response.status, 204);
      assert.equal(response.headers.get("access-control-allow-origin"), "*");
      assert.equal(response.headers.get("access-control-allow-headers"), "content-type");
    });
  });

  describe(`Engine.IO heartbeat and close at ${path}`, () => {
    it("pings a polling client, which answers with pongs", async () => {
      const sid = await openLastingPolling(path);
      for (let i = 0; i < 3; i++) {
        const poll = await fetch(eio(path, `&sid=${sid}`));
        assert.equal(await poll.text(), "2");
        const push = await fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "3" });
        assert.equal(await push.text(), "ok");
      }
    });

    it("keeps a polling client that answers pings past connectTimeout", async () => {
      // Until one ping after the connect timeout would have ended the session.
      const until = Date.now() + CONNECT_TIMEOUT + PING_INTERVAL;
      const sid = await openLastingPolling(path);
      while (Date.now() < until) {
        const poll = await fetch(eio(path, `&sid=${sid}`));
        assert.equal(await poll.text(), "2");
        const push = await fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "3" });
        assert.equal(await push.text(), "ok");
      }
    });

    it("closes a polling session that does not answer pings", async () => {
      const sid = await openPolling(path);
      await sleep(PING_INTERVAL + PING_TIMEOUT + SLACK_MS);
      const poll = await fetch(eio(path, `&sid=${sid}`));
      assert.equal(poll.status, 400);
    });

    it("answers 400 to a poll arriving pingInterval + pingTimeout after the last pong", async () => {
      // The session began before its handshake answer arrived here, so by this clock the
      // deadline has passed when the poll is sent.
      const sid = await openPolling(path);
      const since = Date.now();
      await sleep(PING_INTERVAL + PING_TIMEOUT - (Date.now() - since));
      assert.deepEqual(await errorOf(await fetch(eio(path, `&sid=${sid}`))), {
        status: 400,
        body: { code: 1, message: "Session ID unknown" },
      });
    });

    it("counts the timeout from the last pong, not from the handshake", async () => {
      const sid = await openPolling(path);
      const ping = await fetch(eio(path, `&sid=${sid}`));
      assert.equal(await ping.text(), "2");
      const pong = await fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "3" });
      const pongAt = Date.now();
      assert.equal(await pong.text(), "ok");
      // Well inside the new deadline, the session answers (with the next ping).
      const poll = await fetch(eio(path, `&sid=${sid}`));
      assert.equal(poll.status, 200);
      assert.equal(await poll.text(), "2");
      await sleep(PING_INTERVAL + PING_TIMEOUT - (Date.now() - pongAt));
      assert.deepEqual(await errorOf(await fetch(eio(path, `&sid=${sid}`))), {
        status: 400,
        body: { code: 1, message: "Session ID unknown" },
      });
    });

    it("pings a websocket client and closes it when it stops answering", async () => {
      const ws = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket`);
      await ws.next();
      for (let i = 0; i < 2; i++) {
        assert.equal(await ws.next(), "2");
        ws.send("3");
      }
      assert.ok(await settlesWithin(ws.closed, PING_INTERVAL + PING_TIMEOUT + 1_000));
    });

    it("ends a pending poll with a noop when the client closes", async () => {
      const sid = await openPolling(path);
      const [poll] = await Promise.all([
        fetch(eio(path, `&sid=${sid}`)),
        sleep(20).then(() => fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "1" })),
      ]);
      assert.equal(await poll.text(), "6");
      assert.equal((await fetch(eio(path, `&sid=${sid}`))).status, 400);
    });

    it("closes the session upon a cancelled polling request", async () => {
      const sid = await openLastingPolling(path);
      const controller = new AbortController();
      const cancelled = fetch(eio(path, `&sid=${sid}`), { signal: controller.signal }).catch(() => {});
      await sleep(5);
      controller.abort();
      await cancelled;
      const poll = await fetch(eio(path, `&sid=${sid}`));
      assert.equal(poll.status, 400);
    });

    it("closes the session on overlapping polls", async () => {
      const sid = await openPolling(path);
      const [first, second] = await Promise.all([
        fetch(eio(path, `&sid=${sid}`)),
        sleep(20).then(() => fetch(eio(path, `&sid=${sid}&t=burst`))),
      ]);
      assert.equal(first.status, 200);
      assert.equal(await first.text(), "1");
      assert.equal(second.status, 400);
      assert.equal((await fetch(eio(path, `&sid=${sid}`))).status, 400);
    });

    it("closes the session on an invalid polling packet", async () => {
      const sid = await openPolling(path);
      const push = await fetch(eio(path, `&sid=${sid}`), { method: "POST", body: "abc" });
      assert.equal(push.status, 400);
      assert.equal((await fetch(eio(path, `&sid=${sid}`))).status, 400);
    });

    it("refuses a polling body over maxPayload with 413 and closes the session", async () => {
      const sid = await openPolling(path);
      const push = await fetch(eio(path, `&sid=${sid}`), {
        method: "POST",
        body: "4" + "x".repeat(MAX_PAYLOAD),
      });
      assert.equal(push.status, 413);
      const poll = await fetch(eio(path, `&sid=${sid}`));
      assert.ok([200, 400].includes(poll.status));
      if (poll.status === 200) assert.equal(await poll.text(), "1");
    });

    it("closes a websocket that sends a message over maxPayload", async () => {
      const ws = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket`);
      await ws.next();
      ws.send("4" + "x".repeat(MAX_PAYLOAD + 1));
      assert.ok(await settlesWithin(ws.closed, 2_000));
    });

    it("closes a websocket whose client sends a close packet", async () => {
      const ws = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket`);
      await ws.next();
      ws.send("1");
      assert.ok(await settlesWithin(ws.closed, 2_000));
    });
  });

  describe(`Engine.IO upgrade at ${path}`, () => {
    it("upgrades with probe, ends the pending poll with a noop, then refuses HTTP", async () => {
      const sid = await openPolling(path);
      const pending = fetch(eio(path, `&sid=${sid}`));
      await sleep(20);
      const ws = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket&sid=${sid}`);
      await ws.opened;
      ws.send("2probe");
      assert.equal(await ws.next(), "3probe");
      assert.equal(await (await pending).text(), "6");
      ws.send("5");
      await sleep(20);
      assert.deepEqual(await errorOf(await fetch(eio(path, `&sid=${sid}`))), {
        status: 400,
        body: { code: 3, message: "Bad request" },
      });
      const second = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket&sid=${sid}`);
      assert.ok(await settlesWithin(second.closed, 2_000));
      ws.close();
    });

    it("answers 400 to a poll on an upgraded session and accepts then closes a second websocket", async () => {
      const sid = await openPolling(path);
      const ws = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket&sid=${sid}`);
      await ws.opened;
      ws.send("2probe");
      assert.equal(await ws.next(), "3probe");
      ws.send("5");
      await sleep(20);
      assert.deepEqual(await errorOf(await fetch(eio(path, `&sid=${sid}`))), {
        status: 400,
        body: { code: 3, message: "Bad request" },
      });
      // The reference server completes the websocket handshake (101) and sends a close frame
      // without a status: the client sees an open, then a close with code 1005, no error.
      const second = rawSocket(`${server.wsUrl}${path}/?EIO=4&transport=websocket&sid=${sid}`);
      let refusal = null;
      second.on("unexpected-response", (_req, res) => {
        refusal = res.statusCode;
      });
      let errored = false;
      second.on("error", () => {
        errored = true;
      });
      assert.ok(await settlesWithin(second.opened, 2_000), "the second websocket was not accepted");
      assert.equal(await second.closed, 1005);
      assert.equal(refusal, null);
      assert.equal(errored, false);
      // The first websocket still serves the session.
      assert.equal(await ws.next(), "2");
      ws.close();
    });
  });
}

describe("Engine.IO echo at /engine.io", () => {
  it("echoes polling payloads of text and binary packets", async () => {
    const sid = await openPolling("/engine.io");
    for (const body of ["4hello", "4test1\x1e4test2\x1e4test3", "4hello\x1ebAQIDBA==", "4€€€"]) {
      const push = await fetch(eio("/engine.io", `&sid=${sid}`), { method: "POST", body });
      assert.equal(await push.text(), "ok");
      assert.equal((await pollData("/engine.io", sid)).join("\x1e"), body);
    }
  });

  it("echoes websocket text and binary frames", async () => {
    const ws = rawSocket(`${server.wsUrl}/engine.io/?EIO=4&transport=websocket`);
    await ws.next();
    ws.send("4hello");
    assert.equal(await ws.nextData(), "4hello");
    ws.send(Buffer.from([1, 2, 3, 4]));
    assert.deepEqual(await ws.nextData(), Buffer.from([1, 2, 3, 4]));
    ws.close();
  });

  it("closes a websocket that sends an invalid packet", async () => {
    const ws = rawSocket(`${server.wsUrl}/engine.io/?EIO=4&transport=websocket`);
    await ws.next();
    ws.send("abc");
    assert.ok(await settlesWithin(ws.closed, 2_000));
  });

  it("echoes over websocket after an upgrade", async () => {
    const sid = await openPolling("/engine.io");
    const ws = rawSocket(`${server.wsUrl}/engine.io/?EIO=4&transport=websocket&sid=${sid}`);
    await ws.opened;
    ws.send("2probe");
    assert.equal(await ws.next(), "3probe");
    ws.send("5");
    ws.send("4hello");
    assert.equal(await ws.nextData(), "4hello");
    ws.close();
  });
});

async function socketIo() {
  const ws = rawSocket(`${server.wsUrl}/socket.io/?EIO=4&transport=websocket`);
  await ws.next();
  return ws;
}

async function connected() {
  const ws = await socketIo();
  ws.send("40");
  assert.ok((await ws.nextData()).startsWith("40"));
  assert.equal(await ws.nextData(), '42["auth",{}]');
  return ws;
}

const placeholders = '{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}';

describe("Socket.IO connect", () => {
  it("connects to the main namespace and emits auth", async () => {
    const ws = await socketIo();
    ws.send("40");
    const reply = await ws.nextData();
    assert.ok(reply.startsWith("40"));
    assert.deepEqual(Object.keys(JSON.parse(reply.substring(2))), ["sid"]);
    assert.equal(await ws.nextData(), '42["auth",{}]');
    ws.close();
  });

  it("answers a CONNECT without payload with auth as an empty object, over polling", async () => {
    for (const [packet, nsp] of [["40", ""], ["40/custom,", "/custom,"]]) {
      const sid = await openPolling("/socket.io");
      const push = await fetch(eio("/socket.io", `&sid=${sid}`), { method: "POST", body: packet });
      assert.equal(await push.text(), "ok");
      const packets = await pollUntil("/socket.io", sid, [`40${nsp}`, `42${nsp}[`]);
      assert.equal(packets.length, 2, JSON.stringify(packets));
      assert.match(packets[0], new RegExp(`^40${nsp.replace("/", "\\/")}\\{"sid":"[A-Za-z0-9_-]{20}"\\}$`));
      assert.equal(packets[1], `42${nsp}["auth",{}]`);
    }
  });

  it("answers a CONNECT without payload with auth as an empty object, over websocket", async () => {
    for (const [packet, nsp] of [["40", ""], ["40/custom,", "/custom,"]]) {
      const ws = await socketIo();
      ws.send(packet);
      assert.match(await ws.nextData(), new RegExp(`^40${nsp.replace("/", "\\/")}\\{"sid":"[A-Za-z0-9_-]{20}"\\}$`));
      assert.equal(await ws.nextData(), `42${nsp}["auth",{}]`);
      ws.close();
    }
  });

  it("passes the CONNECT payload to the namespace", async () => {
    const ws = await socketIo();
    ws.send('40{"token":"123"}');
    await ws.nextData();
    assert.equal(await ws.nextData(), '42["auth",{"token":"123"}]');
    ws.close();
  });

  it("connects to /custom with and without payload", async () => {
    for (const [packet, auth] of [["40/custom,", "{}"], ['40/custom,{"token":"abc"}', '{"token":"abc"}']]) {
      const ws = await socketIo();
      ws.send(packet);
      const reply = await ws.nextData();
      assert.ok(reply.startsWith("40/custom,"), reply);
      assert.deepEqual(Object.keys(JSON.parse(reply.substring(10))), ["sid"]);
      assert.equal(await ws.nextData(), `42/custom,["auth",${auth}]`);
      ws.close();
    }
  });

  it("refuses an unknown namespace", async () => {
    const ws = await socketIo();
    ws.send("40/random");
    assert.equal(await ws.nextData(), '44/random,{"message":"Invalid namespace"}');
    ws.close();
  });

  it("closes on an invalid handshake", async () => {
    const ws = await socketIo();
    ws.send("4abc");
    assert.ok(await settlesWithin(ws.closed, 2_000));
  });

  it("closes when no CONNECT arrives within connectTimeout", async () => {
    const ws = rawSocket(`${server.wsUrl}/socket.io/?EIO=4&transport=websocket`);
    await ws.next();
    const answerPings = setInterval(() => ws.readyState === 1 && ws.send("3"), PING_INTERVAL / 2);
    assert.ok(await settlesWithin(ws.closed, CONNECT_TIMEOUT + 1_000));
    clearInterval(answerPings);
  });

  it("ends a pending poll with a close packet when no CONNECT arrives within connectTimeout", async () => {
    const sid = await openPolling("/socket.io");
    let body;
    for (;;) {
      const poll = await fetch(eio("/socket.io", `&sid=${sid}`));
      body = await poll.text();
      if (body !== "2") break;
      const push = await fetch(eio("/socket.io", `&sid=${sid}`), { method: "POST", body: "3" });
      assert.equal(await push.text(), "ok");
    }
    // A noop comes first when the timeout found no poll pending (the reference server's way).
    assert.ok(["1", "6\x1e1"].includes(body), JSON.stringify(body));
    assert.equal((await fetch(eio("/socket.io", `&sid=${sid}`))).status, 400);
  });

  it("keeps the connection after a DISCONNECT from the main namespace", async () => {
    const ws = await connected();
    ws.send("41");
    assert.equal(await ws.next(), "2");
    ws.close();
  });

  it("keeps the main namespace after leaving /custom", async () => {
    const ws = await connected();
    ws.send("40/custom");
    await ws.nextData();
    await ws.nextData();
    ws.send("41/custom");
    ws.send('42["message","message to main namespace"]');
    assert.equal(await ws.nextData(), '42["message-back","message to main namespace"]');
    ws.close();
  });
});

describe("Socket.IO messages", () => {
  it("answers a plain-text event", async () => {
    const ws = await connected();
    ws.send('42["message",1,"2",{"3":[true]}]');
    assert.equal(await ws.nextData(), '42["message-back",1,"2",{"3":[true]}]');
    ws.close();
  });

  it("answers an event with binary attachments", async () => {
    const ws = await connected();
    ws.send(`452-["message",${placeholders}]`);
    ws.send(Buffer.from([1, 2, 3]));
    ws.send(Buffer.from([4, 5, 6]));
    assert.equal(await ws.nextData(), `452-["message-back",${placeholders}]`);
    assert.deepEqual(await ws.nextData(), Buffer.from([1, 2, 3]));
    assert.deepEqual(await ws.nextData(), Buffer.from([4, 5, 6]));
    ws.close();
  });

  it("acknowledges a plain-text event", async () => {
    const ws = await connected();
    ws.send('42456["message-with-ack",1,"2",{"3":[false]}]');
    assert.equal(await ws.nextData(), '43456[1,"2",{"3":[false]}]');
    ws.close();
  });

  it("acknowledges an event with binary attachments", async () => {
    const ws = await connected();
    ws.send(`452-789["message-with-ack",${placeholders}]`);
    ws.send(Buffer.from([1, 2, 3]));
    ws.send(Buffer.from([4, 5, 6]));
    assert.equal(await ws.nextData(), `462-789[${placeholders}]`);
    assert.deepEqual(await ws.nextData(), Buffer.from([1, 2, 3]));
    assert.deepEqual(await ws.nextData(), Buffer.from([4, 5, 6]));
    ws.close();
  });

  it("asks the client for an ack and uses its answer", async () => {
    const ws = await connected();
    ws.send('42["ask",7]');
    const question = await ws.nextData();
    const match = /^42(\d+)\["question",7\]$/.exec(question);
    assert.ok(match, question);
    ws.send(`43${match[1]}["seven"]`);
    assert.equal(await ws.nextData(), '42["answer","seven"]');
    ws.close();
  });

  it("closes the connection on invalid packets", async () => {
    for (const packet of ["4abc", "42{}", '42abc["message-with-ack",1,"2",{"3":[false]}]']) {
      const ws = await connected();
      ws.send(packet);
      assert.ok(await settlesWithin(ws.closed, 2_000), packet);
    }
  });
});

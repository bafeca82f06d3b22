// The official socket.io-client against the conformance server: transports, upgrade,
// messages, acks both ways, binary, namespaces, reconnection and maxPayload.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { client, next, startServer, MAX_PAYLOAD } from "../helpers.js";

let server;
const sockets = [];

function open(path, opts) {
  const socket = client(server.url + path, opts);
  sockets.push(socket);
  return socket;
}

before(async () => {
  server = await startServer();
});

after(async () => {
  for (const socket of sockets) socket.close();
  await server.stop();
});

const TRANSPORTS = {
  "websocket only": { transports: ["websocket"] },
  "polling only": { transports: ["polling"] },
  "default (polling then upgrade)": {},
};

for (const [name, opts] of Object.entries(TRANSPORTS)) {
  describe(`a ${name} client`, () => {
    it("connects and receives its auth payload back", async () => {
      const socket = open("/", { ...opts, auth: { token: "t-1" } });
      const [auth] = await next(socket, "auth");
      assert.deepEqual(auth, { token: "t-1" });
      assert.equal(socket.connected, true);
      assert.equal(typeof socket.id, "string");
    });

    it("gets message-back with the same arguments", async () => {
      const socket = open("/", opts);
      await next(socket, "auth");
      socket.emit("message", 1, "2", { 3: [true] }, null);
      const args = await next(socket, "message-back");
      assert.deepEqual(args, [1, "2", { 3: [true] }, null]);
    });

    it("gets its acknowledgement with the same arguments", async () => {
      const socket = open("/", opts);
      await next(socket, "auth");
      const args = await new Promise((resolve) => {
        socket.emit("message-with-ack", 1, "2", { 3: [false] }, (...reply) => resolve(reply));
      });
      assert.deepEqual(args, [1, "2", { 3: [false] }]);
    });

    it("acknowledges an event the server emitted with an ack", async () => {
      const socket = open("/", opts);
      await next(socket, "auth");
      socket.on("question", (a, b, ack) => ack(a * 2, `${b}!`));
      socket.emit("ask", 21, "why");
      const answer = await next(socket, "answer");
      assert.deepEqual(answer, [42, "why!"]);
    });

    it("round-trips binary payloads in events and acks", async () => {
      const socket = open("/", opts);
      await next(socket, "auth");
      const one = Buffer.from([1, 2, 3]);
      const two = Buffer.from([0, 255, 128, 4]);
      socket.emit("message", one, { nested: two, text: "x" });
      const [gotOne, gotNested] = await next(socket, "message-back");
      assert.deepEqual(Buffer.from(gotOne), one);
      assert.deepEqual(Buffer.from(gotNested.nested), two);
      assert.equal(gotNested.text, "x");

      const acked = await new Promise((resolve) => {
        socket.emit("message-with-ack", two, (reply) => resolve(reply));
      });
      assert.deepEqual(Buffer.from(acked), two);
    });

    it("reconnects by itself after the server drops the connection", async () => {
      const socket = open("/", { ...opts, reconnection: true, reconnectionDelay: 100 });
      await next(socket, "auth");
      // A default client drops its transport only once the upgrade has settled, so the drop is
      // seen on one transport, not raced between two.
      if (name.startsWith("default") && socket.io.engine.transport.name !== "websocket") {
        await next(socket.io.engine, "upgrade");
      }
      const firstId = socket.id;
      socket.emit("disconnect-me");
      const [reason] = await next(socket, "disconnect");
      assert.equal(reason, "transport close");
      // The reconnection waits reconnectionDelay, so this listener is in place in time.
      await next(socket, "auth");
      assert.equal(socket.connected, true);
      assert.notEqual(socket.id, firstId);
    });

    it("is refused when a message exceeds maxPayload", async () => {
      const socket = open("/", opts);
      await next(socket, "auth");
      if (name.startsWith("default") && socket.io.engine.transport.name !== "websocket") {
        await next(socket.io.engine, "upgrade");
      }
      socket.emit("message", "x".repeat(MAX_PAYLOAD + 1000));
      const [reason] = await next(socket, "disconnect");
      assert.ok(
        ["transport close", "transport error"].includes(reason),
        `unexpected reason ${reason}`,
      );
    });
  });
}

describe("the default client", () => {
  it("upgrades from polling to websocket", async () => {
    const socket = open("/", {});
    const engine = socket.io.engine;
    assert.equal(engine.transport.name, "polling");
    const upgraded = next(engine, "upgrade");
    await next(socket, "auth");
    const [transport] = await upgraded;
    assert.equal(transport.name, "websocket");
    assert.equal(engine.transport.name, "websocket");
    socket.emit("message", "after upgrade");
    assert.deepEqual(await next(socket, "message-back"), ["after upgrade"]);
  });
});

describe("namespaces", () => {
  it("connects to /custom and receives its auth payload", async () => {
    const socket = open("/custom", { auth: { token: "abc" } });
    const [auth] = await next(socket, "auth");
    assert.deepEqual(auth, { token: "abc" });
  });

  it("refuses an unknown namespace with 'Invalid namespace'", async () => {
    const socket = open("/random", { transports: ["websocket"] });
    const [error] = await next(socket, "connect_error");
    assert.equal(error.message, "Invalid namespace");
    assert.equal(socket.connected, false);
  });

  it("keeps the main namespace working on the same connection as /custom", async () => {
    const main = open("/", { transports: ["websocket"], forceNew: false });
    await next(main, "auth");
    const custom = client(server.url + "/custom", { transports: ["websocket"], forceNew: false });
    sockets.push(custom);
    await next(custom, "auth");
    assert.equal(main.io, custom.io);
    main.emit("message", "still here");
    assert.deepEqual(await next(main, "message-back"), ["still here"]);
  });
});

describe("server disconnect", () => {
  it("tells the client with 'io server disconnect' and does not reconnect", async () => {
    const socket = open("/", { transports: ["websocket"], reconnection: true, reconnectionDelay: 50 });
    await next(socket, "auth");
    socket.emit("kick-me");
    const [reason] = await next(socket, "disconnect");
    assert.equal(reason, "io server disconnect");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(socket.connected, false);
  });
});

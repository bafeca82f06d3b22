// Where a request's time goes in the store, for `scripts/bench writes` with WRITES_PROFILE=1: a TCP
// proxy between the server and FerretDB that reads the wire protocol (OP_MSG), pairs each command
// with its reply, and adds up, per command and collection, how many there were and how long the
// store took. An HTTP endpoint on the side hands the tally over and starts a new one:
//   GET http://127.0.0.1:STATS_PORT/take  →  { "find users": { n, ms }, ... }
//
// Environment: LISTEN_PORT, TARGET_PORT, STATS_PORT.

import net from 'node:net';
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../api-reference/', import.meta.url));
const { deserialize } = require('bson');

const OP_MSG = 2013;
let tally = {};
const pending = new Map();

// The command of an OP_MSG body: its first key and, when it is a string, its value (the
// collection); "getMore" names the collection under "collection".
function label(body) {
  const kind = body[4];
  if (kind !== 0) return 'other';
  const size = body.readInt32LE(5);
  const doc = deserialize(body.subarray(5, 5 + size), { promoteValues: false });
  const [command] = Object.keys(doc);
  const target = doc[command];
  const collection = typeof target === 'string' ? target : (doc.collection ?? '');
  return `${command} ${collection}`.trim();
}

// Splits a byte stream into whole wire-protocol messages.
function framer(onMessage) {
  let buf = Buffer.alloc(0);
  return (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    while (buf.length >= 16) {
      const len = buf.readInt32LE(0);
      if (buf.length < len) break;
      onMessage(buf.subarray(0, len));
      buf = buf.subarray(len);
    }
  };
}

net
  .createServer((app) => {
    const db = net.connect(Number(process.env.TARGET_PORT), '127.0.0.1');
    app.on('data', framer((msg) => {
      if (msg.readInt32LE(12) === OP_MSG) {
        try {
          pending.set(msg.readInt32LE(4), { label: label(msg.subarray(16)), at: process.hrtime.bigint() });
        } catch {
          // not a command we can read: timed as nothing
        }
      }
      db.write(msg);
    }));
    db.on('data', framer((msg) => {
      const request = pending.get(msg.readInt32LE(8));
      if (request) {
        pending.delete(msg.readInt32LE(8));
        const ms = Number(process.hrtime.bigint() - request.at) / 1e6;
        const t = (tally[request.label] ||= { n: 0, ms: 0 });
        t.n += 1;
        t.ms += ms;
      }
      app.write(msg);
    }));
    const close = () => { app.destroy(); db.destroy(); };
    app.on('error', close).on('close', close);
    db.on('error', close).on('close', close);
  })
  .listen(Number(process.env.LISTEN_PORT), '127.0.0.1');

http
  .createServer((req, res) => {
    const taken = tally;
    tally = {};
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(taken));
  })
  .listen(Number(process.env.STATS_PORT), '127.0.0.1');

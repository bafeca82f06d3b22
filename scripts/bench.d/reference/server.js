// The reference server of `scripts/bench realtime`: the official socket.io server with the same
// events as the Rust bench example. Namespace `/` does nothing on connect;
// GET /bench/broadcast?round=R&t=MICROS emits `tick` with {round: R, t: MICROS} to every socket.
import { createServer } from "node:http";
import { Server } from "socket.io";

const DEFAULT_PORT = 3000;
const BROADCAST_PATH = "/bench/broadcast";
const port = Number(process.env.PORT ?? DEFAULT_PORT);

const httpServer = createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  if (req.method === "GET" && url.pathname === BROADCAST_PATH) {
    io.emit("tick", {
      round: Number(url.searchParams.get("round")),
      t: Number(url.searchParams.get("t")),
    });
    res.end("ok");
    return;
  }
  res.writeHead(404).end();
});
const io = new Server(httpServer, { serveClient: false });

httpServer.listen(port, "127.0.0.1", () => {
  console.log(`reference server listening on 127.0.0.1:${port}`);
});

// Opens idle HTTP connections that never finish their request head (slowloris), in a worker
// thread so the test's own timing of ordinary requests is not slowed by them. Reports
// {connected, open, peak} to the parent every 200 ms and {done: true} once every connection was
// tried; ends on the message 'stop'.
import { connect } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { port, count } = workerData;
const sockets = [];
let connected = 0;
let open = 0;
let peak = 0;

const report = () => parentPort.postMessage({ connected, open, peak });
const ticker = setInterval(report, 200);
parentPort.on('message', (m) => {
  if (m === 'stop') {
    for (const s of sockets) s.destroy();
    clearInterval(ticker);
    report();
    parentPort.close();
  }
});

for (let i = 0; i < count; i += 500) {
  const batch = [];
  for (let j = i; j < Math.min(count, i + 500); j += 1) {
    batch.push(new Promise((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => resolve());
      s.once('connect', () => {
        connected += 1;
        open += 1;
        peak = Math.max(peak, open);
        s.write('GET /api/post/latest-post/latest HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        const drip = setInterval(() => s.writable && s.write('a'), 1_000);
        s.once('close', () => { clearInterval(drip); open -= 1; });
        // Whatever the server answers is read and dropped, so its closing is seen.
        s.resume();
        sockets.push(s);
        resolve();
      });
    }));
  }
  await Promise.all(batch);
}
report();
parentPort.postMessage({ done: true });

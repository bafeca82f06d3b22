// The import benchmark's driver (scripts/bench import): a WordPress export (WXR) of N posts,
// each showing IMAGES pictures served by a loopback image server of the driver's own (every
// picture a different PNG, so each is fetched, decoded and stored), imported by a writer from
// upload to done; then the machine's floor: the same N posts created through the API by another
// writer (8 requests at a time). The server's resident memory is sampled while it imports.
// Prints one JSON line. Environment: API, N, IMAGES, SERVER_PID, TMP.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const zlib = require('zlib');

const N = Number(process.env.N || 5000);
const IMAGES = Number(process.env.IMAGES || 2);
const API = process.env.API;
const SERVER_PID = process.env.SERVER_PID;
const TMP = process.env.TMP || '/tmp';

// A PNG of 96×64 pixels in a colour of its own (the CRC table of the PNG specification).
const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc(buf) {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
function png(seed) {
  const w = 96, h = 64;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      raw[o] = (seed * 37 + x) & 0xff;
      raw[o + 1] = (seed * 11 + y) & 0xff;
      raw[o + 2] = (seed >> 8) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function imageServer() {
  let served = 0;
  const server = http.createServer((req, res) => {
    const m = /^\/img\/(\d+)\.png$/.exec(req.url);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    served += 1;
    const body = png(Number(m[1]));
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, served: () => served })));
}

function writeExport(file, port) {
  const out = fs.createWriteStream(file);
  out.write('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n<title>Bench blog</title>\n<link>http://bench.example</link>\n<wp:wxr_version>1.2</wp:wxr_version>\n');
  for (let i = 0; i < N; i += 1) {
    const pics = Array.from({ length: IMAGES }, (_, j) => `<figure><img src="http://127.0.0.1:${port}/img/${i * IMAGES + j}.png" alt="Picture ${j}"><figcaption>Picture ${j} of post ${i}</figcaption></figure>`).join('');
    const date = new Date(Date.UTC(2020, 0, 1) + i * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
    out.write(`<item><title>Archive post ${i}</title><link>http://bench.example/?p=${i}</link><dc:creator>bench</dc:creator><content:encoded><![CDATA[<h2>Part ${i}</h2><p>The first paragraph of post ${i}, with <strong>some</strong> words and a <a href="https://example.com/${i}">link</a>.</p>${pics}<ul><li>one</li><li>two</li></ul><p>The last paragraph.</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>${i + 1}</wp:post_id><wp:post_date_gmt>${date}</wp:post_date_gmt><wp:post_name>archive-post-${i}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><category domain="post_tag" nicename="bench"><![CDATA[Bench]]></category></item>\n`);
  }
  out.write('</channel>\n</rss>\n');
  return new Promise((resolve) => out.end(resolve));
}

async function api(method, route, body, token) {
  const res = await fetch(`${API}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function signup(name) {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@bench.test`;
  return (await api('POST', '/auth/signup', { fullName: 'Bench Writer', email, password: 'Bench-password-1' })).token;
}

function rssMiB() {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${SERVER_PID}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function until(token, id, status, onTick) {
  for (;;) {
    const view = await api('GET', `/import/${id}`, null, token);
    onTick?.();
    if (view.status === status) return view;
    if (['failed', 'cancelled', 'done'].includes(view.status)) throw new Error(`the import ended as ${view.status}: ${view.error}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  const images = await imageServer();
  const file = path.join(TMP, 'bench.WordPress.xml');
  await writeExport(file, images.port);
  const size = fs.statSync(file).size;
  const token = await signup('importer');
  const rssBefore = rssMiB();
  let rssPeak = rssBefore;
  const sample = () => {
    rssPeak = Math.max(rssPeak, rssMiB());
  };

  const t0 = performance.now();
  const form = new FormData();
  form.append('source', 'wordpress');
  form.append('file', await fs.openAsBlob(file), 'bench.WordPress.xml');
  const res = await fetch(`${API}/api/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const started = await res.json();
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(started)}`);
  const uploaded = performance.now();
  const preview = await until(token, started.id, 'preview', sample);
  const previewed = performance.now();
  await api('POST', `/import/${started.id}/confirm`, { keepStatus: true }, token);
  const done = await until(token, started.id, 'done', sample);
  const finished = performance.now();

  // The floor: the same posts through the API (no pictures), 8 at a time.
  const floorToken = await signup('floor');
  const f0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const i = next;
        next += 1;
        if (i >= N) return;
        await api('POST', '/post/post-create', {
          title: `Archive post ${i}`,
          tags: ['bench'],
          blocks: [
            { id: 'h1', type: 'header', data: { text: `Part ${i}`, level: 2 } },
            { id: 'p1', type: 'paragraph', data: { text: `The first paragraph of post ${i}, with <b>some</b> words.` } },
            { id: 'l1', type: 'list', data: { style: 'unordered', items: ['one', 'two'] } },
            { id: 'p2', type: 'paragraph', data: { text: 'The last paragraph.' } },
          ],
        }, floorToken);
      }
    }),
  );
  const floorMs = performance.now() - f0;
  images.server.close();
  console.log(JSON.stringify({
    n: N,
    images: N * IMAGES,
    fileMiB: size / 1048576,
    uploadMs: uploaded - t0,
    previewMs: previewed - uploaded,
    writeMs: finished - previewed,
    totalMs: finished - t0,
    created: done.report.created,
    imagesFetched: done.report.imagesFetched,
    imagesFailed: done.report.imagesFailed,
    imagesServed: images.served(),
    counts: preview.counts,
    rssBeforeMiB: rssBefore,
    rssPeakMiB: rssPeak,
    floorMs,
  }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

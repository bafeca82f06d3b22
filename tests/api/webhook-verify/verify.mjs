// Verifies one webhook delivery with the official Standard Webhooks library (npm
// `standardwebhooks`). Reads {secret, body, headers} as JSON from stdin; prints "ok", or the
// library's refusal and exits 1.
import { Webhook } from 'standardwebhooks';

const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const { secret, body, headers } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  try {
    new Webhook(secret).verify(body, headers);
    process.stdout.write('ok');
  } catch (error) {
    process.stdout.write(String(error && error.message ? error.message : error));
    process.exit(1);
  }
});

// Prints the Stripe-Signature header the official Stripe SDK's test helper
// (stripe.webhooks.generateTestHeaderString) makes for the payload read from stdin.
// Usage: node sign.js SECRET TIMESTAMP < payload.json
'use strict';
const Stripe = require('stripe');

const [secret, timestamp] = process.argv.slice(2);
if (!secret || !timestamp) {
  console.error('usage: node sign.js SECRET TIMESTAMP < payload');
  process.exit(2);
}
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const stripe = new Stripe('sk_test_unused');
  const payload = Buffer.concat(chunks).toString('utf8');
  process.stdout.write(
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Number(timestamp) }),
  );
});

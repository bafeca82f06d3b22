// Brute force on login, one-time-code checks and one-time-code sends: each is refused with a 429
// and a Retry-After within the configured number of tries, per account and per address, and the
// limits hold when the attacker changes X-Forwarded-For (the peer is not a trusted proxy) or the
// letter case of the email.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ferret, PASSWORD, Server, figure, request, signup } from './lib.js';

const LIMITS = {
  login_per_account: 5,
  login_per_address: 12,
  otp_send_per_account: 3,
  otp_send_per_address: 8,
  otp_check_per_account: 4,
  otp_check_per_address: 10,
};

let ferret;
let server;
let tried = 0;

before(async () => {
  ferret = await new Ferret('brute-db').start();
  // No trusted proxy (the default): X-Forwarded-For from the peer is not believed.
  const env = {};
  for (const [k, v] of Object.entries(LIMITS)) env[`PRESSROOM__RATE_LIMIT__${k.toUpperCase()}`] = String(v);
  server = await new Server('brute', { ferret, env }).start();
});
after(async () => {
  figure('brute force: attempts made', tried);
  await server?.kill('SIGTERM');
  await ferret?.kill();
});

/** A case variant of an address: every other letter upper case. */
function shout(email) {
  return [...email].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
}

let forged = 0;
/** A new forged client address for each attempt. */
function forgedAddress() {
  forged += 1;
  return `203.0.${Math.floor(forged / 250) % 250}.${(forged % 250) + 1}`;
}

async function attempt(method, path, body) {
  tried += 1;
  return request(server.url, method, path, { body, headers: { 'x-forwarded-for': forgedAddress() } });
}

function assertLimited(res, what) {
  assert.equal(res.status, 429, `${what}: expected 429, got ${res.status} ${res.text}`);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry > 0, `${what}: Retry-After is ${res.headers.get('retry-after')}`);
  assert.match(res.json.message, /Too many attempts/);
}

/**
 * Tries `path` for one account: the allowed tries answer something other than 429, the next one
 * (and any with another letter case or another forged X-Forwarded-For) 429.
 */
async function perAccount(path, limit, body) {
  for (let i = 0; i < limit; i += 1) {
    const res = await attempt('POST', path, body(i % 2 ? shout : (e) => e));
    assert.notEqual(res.status, 429, `${path}: try ${i + 1} of ${limit} was refused`);
  }
  assertLimited(await attempt('POST', path, body((e) => e)), `${path} past the account limit`);
  assertLimited(await attempt('POST', path, body((e) => e.toUpperCase())), `${path} in upper case`);
}

describe('brute force', { timeout: 120_000 }, () => {
  it('login: per account, whatever the letter case or the forged X-Forwarded-For', async () => {
    const victim = await signup(server.url, 'login-victim');
    await perAccount('/api/auth/login', LIMITS.login_per_account, (f) => ({ email: f(victim.email), password: 'wrong password' }));
    // Even the right password is refused until the window ends: guessing cannot go on.
    assertLimited(await attempt('POST', '/api/auth/login', { email: victim.email, password: PASSWORD }), 'the right password');
  });

  it('one-time-code sends: per account', async () => {
    const victim = await signup(server.url, 'send-victim');
    await perAccount('/api/auth/send-reset-otp', LIMITS.otp_send_per_account, (f) => ({ email: f(victim.email) }));
  });

  it('one-time-code checks: per account', async () => {
    const victim = await signup(server.url, 'check-victim');
    await perAccount('/api/auth/verify-reset-otp', LIMITS.otp_check_per_account, (f) => ({ email: f(victim.email), otp: '000000' }));
  });

  it('login, code sends and code checks: per address, which X-Forwarded-For from an untrusted peer does not change', async () => {
    // The earlier tests already spent part of this address's allowance: count from the server's
    // answers, not from a fresh start. Each try is on a new account and with a new forged address.
    for (const [path, body] of [
      ['/api/auth/login', (e) => ({ email: e, password: 'wrong password' })],
      ['/api/auth/send-reset-otp', (e) => ({ email: e })],
      ['/api/auth/verify-reset-otp', (e) => ({ email: e, otp: '000000' })],
    ]) {
      const limit = {
        '/api/auth/login': LIMITS.login_per_address,
        '/api/auth/send-reset-otp': LIMITS.otp_send_per_address,
        '/api/auth/verify-reset-otp': LIMITS.otp_check_per_address,
      }[path];
      let refusedAt = 0;
      for (let i = 1; i <= limit + 1; i += 1) {
        const res = await attempt('POST', path, body(`nobody-${i}-${Date.now()}@example.com`));
        if (res.status === 429) {
          assertLimited(res, `${path} per address`);
          refusedAt = i;
          break;
        }
      }
      assert.ok(refusedAt > 0 && refusedAt <= limit + 1, `${path}: never refused within ${limit + 1} tries from one address`);
      figure(`brute force: ${path} refused per address at try`, refusedAt);
    }
  });
});

// Reads codes from the Maildir of the SMTP sink started by scripts/test.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { api, sleep } from "./product-helpers.js";

const MAILDIR = process.env.PRESSROOM_MAILDIR;

function mailsTo(address) {
  if (!MAILDIR) throw new Error("PRESSROOM_MAILDIR is not set");
  const found = [];
  for (const sub of ["new", "cur"]) {
    let names = [];
    try {
      names = readdirSync(path.join(MAILDIR, sub));
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(MAILDIR, sub, name);
      const text = readFileSync(file, "utf8");
      const head = text.split(/\r?\n\r?\n/)[0].toLowerCase();
      if (head.split(/\r?\n/).some((l) => l.startsWith("to:") && l.includes(address.toLowerCase()))) {
        found.push({ at: statSync(file).mtimeMs, text });
      }
    }
  }
  return found.sort((a, b) => a.at - b.at).map((m) => m.text);
}

export async function waitForCode(address, before) {
  for (let i = 0; i < 150; i++) {
    const mails = mailsTo(address);
    if (mails.length > before) {
      const m = /code is (\d{6})/.exec(mails[mails.length - 1]);
      if (m) return m[1];
    }
    await sleep(100);
  }
  throw new Error(`no code mailed to ${address}`);
}

export async function resetPasswordWithMailedCode(email, newPassword) {
  const before = mailsTo(email).length;
  const sent = await api("POST", "/auth/send-reset-otp", { email });
  if (sent.status !== 200) throw new Error(`send-reset-otp: ${sent.status}`);
  const otp = await waitForCode(email, before);
  const res = await api("POST", "/auth/reset-password", { email, otp, newPassword });
  if (res.status !== 200) throw new Error(`reset-password: ${res.status} ${JSON.stringify(res.body)}`);
}

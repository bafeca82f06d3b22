"""Prints the mail benchmark's figures from the driver's and the raw sink's JSON lines."""
import json
import sys

run = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
raw = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
delivered_in_sink = int(sys.argv[3])
build = sys.argv[4]
floor = json.loads(open(sys.argv[5]).read().strip().splitlines()[-1]) if len(sys.argv) > 5 else None
n = run["n"]
seconds = run["delivered_ms"] / 1000
rate = run["emails_sent"] / seconds if seconds else 0
print(f"mail: a post to {n} followers ({build} build)")
print(f"  publish request, author without followers (median of 5): {run['publish_ms_no_followers']:.1f} ms")
print(f"  publish request, author with {n} followers:              {run['publish_ms_n_followers']:.1f} ms")
print(f"  publish request afterwards, without followers:          {run['publish_ms_after']:.1f} ms")
print(f"  notices {run['notices']}, emails sent {run['emails_sent']}, failed {run['emails_failed']}, in the sink {delivered_in_sink}")
print(f"  all emails delivered {seconds:.1f} s after the publish: {1000 * seconds / max(1, run['emails_sent']):.2f} s per 1,000 emails, {rate:.0f} emails/s")
print(f"  the SMTP sink's raw acceptance (smtplib, {raw['n']} messages): {raw['rate']:.0f} emails/s")
print(f"  ratio ours / raw sink: {rate / raw['rate']:.2f}")
if floor:
    print(
        f"  FerretDB alone, the worker's writes for {floor['n']} emails ({floor['chunk']} a chunk, no server, no SMTP): "
        f"{floor['seconds']:.1f} s, {floor['rate']:.0f} emails/s; ratio ours / FerretDB alone: {rate / floor['rate']:.2f}"
    )

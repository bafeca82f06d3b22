"""Prints the push benchmark's figures (scripts/bench push): one JSON line from pushbench.js."""
import json
import sys

run = json.load(open(sys.argv[1]))
build = sys.argv[2] if len(sys.argv) > 2 else "release"
n = run["n"]
ours = n / (run["delivered_ms"] / 1000)
raw = n / (run["raw_ms"] / 1000)
print(f"push to {n} devices ({build} build)")
print(f"  publish request, author without followers (median of 5): {run['publish_ms_no_followers']:.1f} ms")
print(f"  publish request, author with {n} followers with devices:  {run['publish_ms_n_followers']:.1f} ms")
print(f"  publish request afterwards:                               {run['publish_ms_after']:.1f} ms")
print(f"  from publish to every push taken by the push service:    {run['delivered_ms'] / 1000:.1f} s"
      f" ({ours:.0f} pushes/s; target: {n} within 120 s)")
print(f"  devices with exactly one message: {run['devices_with_one_message']} of {n};"
      f" noted delivered: {run['devices_noted_delivered']}; notices: {run['notices']}")
print(f"  the stand-in push service alone (web-push library, 32 at a time): {run['raw_ms'] / 1000:.1f} s"
      f" ({raw:.0f} messages/s)")
print(f"  ratio ours/raw rate: {ours / raw:.2f}")

#!/usr/bin/env python3
"""What recording the metrics costs in `scripts/bench realtime --metrics`.

  metrics_report.py realtime ON.json... -- OFF.json...

Each file is one load generator run (broadcast frames per second, p50/p99 delivery latency,
server CPU per round). Prints each run, the mean of each side, and on/off ratios.
"""
import json
import sys


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def main(argv):
    if len(argv) < 2 or argv[0] != "realtime" or "--" not in argv:
        sys.exit(__doc__)
    split = argv.index("--")
    on = [json.load(open(f)) for f in argv[1:split]]
    off = [json.load(open(f)) for f in argv[split + 1:]]
    keys = [
        ("frames_per_second", "frames/s", "{:,.0f}"),
        ("latency_p50_ms", "p50 ms", "{:.1f}"),
        ("latency_p99_ms", "p99 ms", "{:.1f}"),
        ("server_cpu_ms_per_round", "server CPU ms/round", "{:.1f}"),
    ]
    print(f"{'run':16}" + "".join(f"{label:>22}" for _, label, _ in keys))
    for run in on + off:
        print(f"{run['label']:16}" + "".join(f"{fmt.format(run.get(k) or 0):>22}" for k, _, fmt in keys))
    print()
    for k, label, fmt in keys:
        a, b = mean(r.get(k) for r in on), mean(r.get(k) for r in off)
        if a and b:
            print(f"  {label:22} on {fmt.format(a):>12}   off {fmt.format(b):>12}   on/off {a / b:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Prints `scripts/bench writes`'s table from the JSON lines run.mjs wrote (one per size): each
request's median and p99 at every size, the ratio of each median to the smallest size's, and the
store's floor measured in the same runs. Usage: report.py RESULTS.jsonl"""

import json
import statistics
import sys


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


def main(path):
    runs = [json.loads(line) for line in open(path) if line.strip()]
    runs.sort(key=lambda r: r["size"])
    try:
        table(runs)
    finally:
        profile(runs)


def table(runs):
    sizes = [r["size"] for r in runs]
    names = list(runs[0]["samples"].keys())
    head = f"{'request':<26}" + "".join(f"{'median/p99 ms at ' + format(s, ','):>30}" for s in sizes)
    head += "".join(f"{'ratio at ' + format(s, ','):>18}" for s in sizes[1:])
    print(head)
    print("-" * len(head))
    worst = (0.0, "")
    for name in names:
        medians = []
        row = f"{name:<26}"
        for r in runs:
            xs = r["samples"].get(name, [])
            if not xs:
                row += f"{'-':>30}"
                medians.append(None)
                continue
            m = statistics.median(xs)
            medians.append(m)
            row += f"{m:>18.1f} / {p99(xs):>8.1f}"
        for m in medians[1:]:
            ratio = m / medians[0] if m is not None and medians[0] else None
            row += f"{ratio:>17.2f}x" if ratio is not None else f"{'-':>18}"
            if ratio is not None and not name.startswith("floor") and ratio > worst[0]:
                worst = (ratio, name)
        print(row)
    if len(sizes) > 1:
        print(f"\nlargest ratio of a request: {worst[0]:.2f}x ({worst[1]}), largest size {sizes[-1]:,} posts")
        top = runs[-1]["samples"]
        slowest = max(
            ((statistics.median(v), k) for k, v in top.items() if not k.startswith("floor")),
            default=(0, ""),
        )
        print(f"slowest median at {sizes[-1]:,} posts: {slowest[0]:.1f} ms ({slowest[1]})")
        over_ratio = [k for k in names if not k.startswith("floor") and ratio_of(runs, k) > 1.5]
        over_ms = [k for k in names if not k.startswith("floor") and median_of(top, k) > 20]
        print(f"over 1.5x at {sizes[-1]:,} posts: {', '.join(over_ratio) or 'none'}")
        print(f"over 20 ms at {sizes[-1]:,} posts: {', '.join(over_ms) or 'none'}")


def median_of(samples, name):
    xs = samples.get(name, [])
    return statistics.median(xs) if xs else 0.0


def ratio_of(runs, name):
    first, last = median_of(runs[0]["samples"], name), median_of(runs[-1]["samples"], name)
    return last / first if first else 0.0


def profile(runs):
    """Each request's store commands per request at the smallest and largest sizes (the runs
    made with WRITES_PROFILE=1): count and milliseconds, the costliest first."""
    first, last = runs[0], runs[-1]
    if "profile" not in last:
        return
    print("\nwhere each request's store time goes (per request: commands, ms), "
          f"at {first['size']:,} → {last['size']:,} posts")
    for name, labels in last["profile"].items():
        samples = len(last["samples"].get(name, [])) or 1
        small = first.get("profile", {}).get(name, {})
        small_samples = len(first["samples"].get(name, [])) or 1
        total = sum(t["ms"] for t in labels.values()) / samples
        commands = sum(t["n"] for t in labels.values()) / samples
        print(f"  {name}: {total:.1f} ms in the store, {commands:.1f} commands")
        for label, t in sorted(labels.items(), key=lambda kv: -kv[1]["ms"])[:8]:
            s = small.get(label, {"n": 0, "ms": 0})
            print(f"    {label:<40} {t['n'] / samples:>5.1f} × {t['ms'] / max(t['n'], 1):>7.2f} ms"
                  f"   (at {first['size']:,}: {s['n'] / small_samples:.1f} × {s['ms'] / max(s['n'], 1):.2f} ms)")


if __name__ == "__main__":
    main(sys.argv[1])

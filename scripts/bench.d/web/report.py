"""The table of `scripts/bench web`: per page the median of its runs (each figure on its own) of
the performance score, LCP, TBT, CLS and the bytes transferred, the floor's figures beside, and
pass/fail of the reader pages against the targets (performance >= 95, LCP <= 1.8 s,
TBT <= 150 ms, CLS <= 0.02). Pages of a reference build (`ref-home`, ...: WEB_REFERENCE) are
listed too, and each reader page is compared with its reference (this build's median against
the reference's, measured in the same runs). Usage: report.py RUNS.jsonl"""

import json
import statistics
import sys

TARGETS = {"score": 95, "lcp": 1800, "tbt": 150, "cls": 0.02}
READER = {"home", "post", "author"}


def main(path):
    runs = [json.loads(line) for line in open(path) if line.startswith("{")]
    pages = []
    for r in runs:
        if r["page"] not in pages:
            pages.append(r["page"])
    med = {}
    for p in pages:
        rs = [r for r in runs if r["page"] == p]
        med[p] = {k: statistics.median(r[k] for r in rs) for k in ("score", "lcp", "tbt", "cls", "bytes", "fcp")}
        med[p]["n"] = len(rs)
        med[p]["url"] = rs[0]["url"]
    how = runs[0].get("throttling", "simulate") if runs else "simulate"
    slowed = "slow 4G and a 4x slower CPU, applied for real" if how == "devtools" else "simulated slow 4G, 4x CPU slowdown"
    print(f"Lighthouse, mobile defaults ({slowed}); median of each figure over the runs")
    print(f"{'page':<12}{'runs':>5}{'perf':>6}{'FCP s':>7}{'LCP s':>7}{'TBT ms':>8}{'CLS':>7}{'KiB':>7}  targets")
    failed = False
    for p in pages:
        m = med[p]
        verdict = ""
        if p in READER:
            misses = []
            if m["score"] < TARGETS["score"]:
                misses.append("perf")
            if m["lcp"] > TARGETS["lcp"]:
                misses.append("LCP")
            if m["tbt"] > TARGETS["tbt"]:
                misses.append("TBT")
            if m["cls"] > TARGETS["cls"]:
                misses.append("CLS")
            verdict = "pass" if not misses else "FAIL (" + ", ".join(misses) + ")"
            failed = failed or bool(misses)
        elif p == "floor":
            verdict = "(the floor: the same article as static HTML, no script)"
        elif p.startswith("ref-"):
            verdict = "(the reference build)"
        print(
            f"{p:<12}{m['n']:>5}{m['score']:>6.0f}{m['fcp'] / 1000:>7.2f}{m['lcp'] / 1000:>7.2f}{m['tbt']:>8.0f}"
            f"{m['cls']:>7.3f}{m['bytes'] / 1024:>7.0f}  {verdict}"
        )
    if "floor" in med and "post" in med:
        f, p = med["floor"], med["post"]
        print(
            f"post page against the floor: LCP {p['lcp'] - f['lcp']:+.0f} ms, FCP {p['fcp'] - f['fcp']:+.0f} ms, "
            f"{(p['bytes'] - f['bytes']) / 1024:+.0f} KiB"
        )
    compared = [p for p in pages if p in READER and f"ref-{p}" in med]
    if compared:
        print("against the reference build, same runs (this build / reference):")
        for p in compared:
            m, r = med[p], med[f"ref-{p}"]
            ratio = m["tbt"] / r["tbt"] if r["tbt"] else float("nan")
            print(
                f"  {p:<8} TBT {m['tbt']:.0f} / {r['tbt']:.0f} ms ({ratio:.2f}), LCP {m['lcp'] - r['lcp']:+.0f} ms, "
                f"FCP {m['fcp'] - r['fcp']:+.0f} ms, perf {m['score']:.0f} / {r['score']:.0f}, {(m['bytes'] - r['bytes']) / 1024:+.0f} KiB"
            )
    print("reader pages (home, post, author): " + ("FAIL" if failed else "pass") + " against performance >= 95, LCP <= 1.8 s, TBT <= 150 ms, CLS <= 0.02")


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
"""Figures of `scripts/bench api`.

  report.py paths SITE.json DIR        writes DIR/<endpoint>.paths (one request path per line)
  report.py record OUT.json WRK.txt CPU_BEFORE CPU_AFTER ...   one measured run -> JSON
  report.py table RUN.json...          prints the table of one size, with ratios to the reference
  report.py growth RUN.json...         prints how our p99 grows with the number of posts

CPU_BEFORE/CPU_AFTER are "app:storage" CPU seconds of the server process and of the storage
processes (FerretDB, and Redis for ours) read from /proc around the run.
"""

import json
import random
import re
import sys

ENDPOINTS = [
    ("home", "GET /api/public/posts"),
    ("latest", "GET /api/post/latest-post/latest"),
    ("trending", "GET /api/post/trending-post/trending"),
    ("tag", "GET /api/post/public/posts?tag="),
    ("category", "GET /api/post/public/posts?category="),
    ("author", "GET /api/post/user/{id}/posts"),
    ("single", "GET /api/public/post/{slug}"),
    ("search", "GET /api/public/search-posts?query="),
    ("count", "GET /api/post/count/all"),
    ("page", "GET /post/{slug} (server-rendered page)"),
    ("feed", "GET /feed.xml (Atom, 30 posts)"),
    ("sitemap", "GET /sitemap-posts-1.xml"),
]


def paths(site_file, out_dir):
    site = json.load(open(site_file))
    rnd = random.Random(7)
    lists = {
        "home": ["/api/public/posts"],
        "latest": ["/api/post/latest-post/latest"],
        "trending": ["/api/post/trending-post/trending"],
        "tag": [f"/api/post/public/posts?tag={t}" for t in site["tags"]],
        "category": [f"/api/post/public/posts?category={c}" for c in site["categories"]],
        "author": [f"/api/post/user/{a}/posts" for a in site["authors"]],
        "single": [f"/api/public/post/{s}" for s in site["slugs"]],
        "search": [
            f"/api/public/search-posts?query={rnd.choice(site['words'])}%20{rnd.choice(site['words'])}"
            for _ in range(200)
        ]
        + [f"/api/public/search-posts?query={w}" for w in site["words"]],
        "count": ["/api/post/count/all"],
        "page": [f"/post/{s}" for s in site["slugs"]],
        "feed": ["/feed.xml"],
        "sitemap": ["/sitemap-posts-1.xml"],
        "floor": ["/api/config/public"],
    }
    for name, items in lists.items():
        rnd.shuffle(items)
        with open(f"{out_dir}/{name}.paths", "w") as f:
            f.write("\n".join(items) + "\n")


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def ms(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text.strip())
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def record(out, wrk_file, before, after, rss_kib, label, endpoint, posts, connections="32"):
    text = open(wrk_file).read()
    figures = {"label": label, "endpoint": endpoint, "posts": int(posts), "connections": int(connections)}
    m = re.search(r"(\d+) requests in ([\d.]+)(\w+)", text)
    figures["requests"] = int(m.group(1)) if m else 0
    figures["seconds"] = ms(m.group(2) + m.group(3)) / 1000 if m else None
    m = re.search(r"Requests/sec:\s+([\d.]+)", text)
    figures["rps"] = float(m.group(1)) if m else 0.0
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+(\S+)", text, re.M)
        figures[f"p{pct}"] = ms(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    figures["errors"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    figures["socket_errors"] = sum(int(g) for g in m.groups()) if m else 0
    b_app, b_store = (float(x) for x in before.split(":"))
    a_app, a_store = (float(x) for x in after.split(":"))
    n = max(figures["requests"], 1)
    figures["cpu_app_ms"] = (a_app - b_app) * 1000 / n
    figures["cpu_all_ms"] = (a_app - b_app + a_store - b_store) * 1000 / n
    figures["rss_mib"] = int(rss_kib) / 1024
    json.dump(figures, open(out, "w"))


def fmt(v, digits=1):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return f"{v:,}"


def table(files):
    runs = [json.load(open(f)) for f in files]
    ref = next((r for r in runs if r["label"] == "reference" and r["endpoint"] == "home"), None)
    ref1 = next((r for r in runs if r["label"] == "reference" and r["endpoint"] == "home-1"), None)
    ours = [r for r in runs if r["label"] == "ours"]
    floor = next((r for r in runs if r["label"] == "floor"), None)
    posts = runs[0]["posts"]
    print(f"api: {posts:,} posts, 32 concurrent connections, 2 load threads (wrk)")
    head = f"{'':44}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms/req':>11}{'+storage':>9}{'RSS MiB':>9}{'errors':>8}"
    print(head)

    def line(name, r):
        errs = r["errors"] + r["socket_errors"]
        print(
            f"{name:44}{fmt(r['rps'], 0):>9}{fmt(r['p50']):>9}{fmt(r['p99']):>9}"
            f"{fmt(r['cpu_app_ms'], 2):>11}{fmt(r['cpu_all_ms'], 2):>9}{fmt(r['rss_mib'], 0):>9}{errs:>8}"
        )

    for key, name in ENDPOINTS:
        r = next((r for r in ours if r["endpoint"] == key), None)
        if r:
            line(f"ours {name}", r)
    if floor:
        line("floor GET /api/config/public (no storage)", floor)
    single = next((r for r in ours if r["endpoint"] == "single"), None)
    page = next((r for r in ours if r["endpoint"] == "page"), None)
    if single and page and single["cpu_app_ms"] and single["p99"]:
        print(
            f"  a post's page / its JSON: CPU per request {page['cpu_app_ms'] / single['cpu_app_ms']:.2f}x, "
            f"p99 {page['p99'] / single['p99']:.2f}x, req/s {page['rps'] / max(single['rps'], 1e-9):.2f}x"
        )
    uncached = [r for r in runs if r["label"] == "uncached"]
    for key, name in ENDPOINTS:
        r = next((r for r in uncached if r["endpoint"] == key), None)
        if r:
            line(f"uncached {name}", r)
    if floor and ours:
        print()
        print("guest answers (no token) against the floor and the uncached path, same run:")
        for key, name in ENDPOINTS:
            o = next((r for r in ours if r["endpoint"] == key), None)
            if not o or key == "floor":
                continue
            u = next((r for r in uncached if r["endpoint"] == key), None)
            text = f"  {name:42}{100 * o['rps'] / max(floor['rps'], 1e-9):5.1f} % of the floor's req/s"
            if u and u["rps"]:
                text += f"   {o['rps'] / u['rps']:6.2f}x the uncached req/s   p99 {fmt(o['p99'])} ms (uncached {fmt(u['p99'])} ms)"
            else:
                text += f"   p99 {fmt(o['p99'])} ms"
            print(text)
    off = [r for r in runs if r["label"] == "metrics-off"]
    for key, name in ENDPOINTS:
        r = next((r for r in off if r["endpoint"] == key), None)
        if r:
            line(f"metrics off {name}", r)
    if off:
        print()
        print("metrics on / off (API_METRICS=compare, the same build and site):")
        for key, name in ENDPOINTS:
            o = next((r for r in ours if r["endpoint"] == key), None)
            b = next((r for r in off if r["endpoint"] == key), None)
            if o and b and b["rps"] and b["cpu_app_ms"]:
                print(
                    f"  {name:42}req/s {o['rps'] / b['rps']:.3f}   CPU per request {o['cpu_app_ms'] / b['cpu_app_ms']:.3f}"
                    f"   p99 {o['p99'] / b['p99']:.3f}"
                )
    base = [r for r in runs if r["label"] == "base"]
    for key, name in ENDPOINTS:
        r = next((r for r in base if r["endpoint"] == key), None)
        if r:
            line(f"base {name}", r)
    base_floor = next((r for r in runs if r["label"] == "floor-base"), None)
    if base_floor:
        line("base floor", base_floor)
    if base:
        print()
        print("ours/base (API_BASELINE, the same site):")
        for key, name in ENDPOINTS:
            o = next((r for r in ours if r["endpoint"] == key), None)
            b = next((r for r in base if r["endpoint"] == key), None)
            if o and b and b["p99"] and b["cpu_app_ms"]:
                print(f"  {name:42}p99 {o['p99'] / b['p99']:.3f}   CPU per request {o['cpu_app_ms'] / b['cpu_app_ms']:.3f}")
    if ref:
        line("reference GET /api/public/posts", ref)
        if ref1:
            line("reference, 1 client alone", ref1)
        home = next((r for r in ours if r["endpoint"] == "home"), None)
        if home:
            print()
            print("ours/reference, GET /api/public/posts:")

            def ratio(a, b):
                return f"{a / b:,.3f}" if a and b else "-"

            rps = ratio(home["rps"], ref["rps"])
            if not ref["requests"] and ref.get("seconds"):
                # None answered in the run: it did less than one request in that time.
                rps = f"> {home['rps'] * ref['seconds']:,.0f} (the reference answered none in {ref['seconds']:.0f} s)"
            print(f"  requests per second  {rps}")
            print(f"  p50 latency          {ratio(home['p50'], ref['p50'])}")
            print(f"  p99 latency          {ratio(home['p99'], ref['p99'])}")
            print(f"  CPU per request      {ratio(home['cpu_app_ms'], ref['cpu_app_ms'])} (app), "
                  f"{ratio(home['cpu_all_ms'], ref['cpu_all_ms'])} (app + storage)")
            print(f"  RSS                  {ratio(home['rss_mib'], ref['rss_mib'])}")
            if ref1 and ref1["p50"]:
                print(f"  p50, ours at 32 clients / the reference's single client alone  {ratio(home['p50'], ref1['p50'])}")


def growth(files):
    runs = [json.load(open(f)) for f in files]
    for label, title in (("ours", "our"), ("base", "the baseline's (API_BASELINE)")):
        ours = [r for r in runs if r["label"] == label]
        sizes = sorted({r["posts"] for r in ours})
        if len(sizes) < 2:
            continue
        for figure, what in (("p99", "p99 (ms)"), ("cpu_app_ms", "CPU per request (ms)")):
            print()
            print(f"{title} {what} by number of posts, and the ratio largest/smallest:")
            print(f"{'':44}" + "".join(f"{s:>11,}" for s in sizes) + f"{'ratio':>9}")
            for key, name in ENDPOINTS:
                row = [next((r[figure] for r in ours if r["endpoint"] == key and r["posts"] == s), None) for s in sizes]
                if not any(row):
                    continue
                ratio = f"{row[-1] / row[0]:.2f}" if row[0] and row[-1] else "-"
                print(f"{name:44}" + "".join(f"{fmt(v, 2 if figure != 'p99' else 1):>11}" for v in row) + f"{ratio:>9}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"paths": paths, "record": record, "table": table, "growth": growth}[cmd](
        *(args if cmd in ("paths", "record") else [args])
    )

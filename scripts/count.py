#!/usr/bin/env python3
"""Reads a test suite's log and prints "passed failed" for cargo, vitest, node:test and pytest output."""
import re
import sys

kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8", errors="replace").read()
text = re.sub(r"\x1b\[[0-9;]*m", "", text)
passed = failed = 0
if kind == "cargo":
    for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed", text):
        passed += int(m.group(1))
        failed += int(m.group(2))
elif kind == "vitest":
    m = re.search(r"^\s*Tests\s+(.*)$", text, re.M)
    if m:
        f = re.search(r"(\d+) failed", m.group(1))
        p = re.search(r"(\d+) passed", m.group(1))
        failed = int(f.group(1)) if f else 0
        passed = int(p.group(1)) if p else 0
elif kind == "node":
    for m in re.finditer(r"^(?:#|ℹ) pass (\d+)$", text, re.M):
        passed += int(m.group(1))
    for m in re.finditer(r"^(?:#|ℹ) fail (\d+)$", text, re.M):
        failed += int(m.group(1))
elif kind == "pytest":
    m = re.findall(r"^=*\s*(.*\b(?:passed|failed|error)\b.*?)\s*=*$", text, re.M)
    if m:
        last = m[-1]
        f = re.search(r"(\d+) failed", last)
        e = re.search(r"(\d+) error", last)
        p = re.search(r"(\d+) passed", last)
        failed = (int(f.group(1)) if f else 0) + (int(e.group(1)) if e else 0)
        passed = int(p.group(1)) if p else 0
print(passed, failed)

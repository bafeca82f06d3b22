"""Prints the revisions benchmark's figures (one JSON line from revbench.js) as a table."""
import json
import sys

r = json.loads(open(sys.argv[1]).read())
build = sys.argv[2]
s, l = r["small"], r["large"]
print(f"revisions ({build} build): a post of {r['blocks']} paragraphs saved {r['edits']} times; medians of {r['runs']} requests")
print(f"  {'':28} {'at ' + str(s['revisions']):>10} {'at ' + str(l['revisions']):>10}   ratio")
for key, label in (("listMs", "list the revisions, ms"), ("compareMs", "compare the two newest, ms"), ("floorMs", "floor: read the post, ms")):
    print(f"  {label:28} {s[key]:10.1f} {l[key]:10.1f}   {l[key] / s[key]:.2f}")
print(f"  list / floor at {l['revisions']:<3}           {l['listMs'] / l['floorMs']:10.2f}")
print(f"  storage: {r['kept']} revisions kept, {r['rawBytes']} bytes of JSON stored as {r['storedBytes']} bytes"
      f" ({r['storedBytes'] / r['rawBytes']:.2f} of it, {r['rawBytes'] / r['storedBytes']:.1f}x smaller)")

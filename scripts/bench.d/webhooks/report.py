"""Prints the webhook benchmark's figures (one JSON line from webhookbench.js) as a table."""
import json
import sys

r = json.loads(open(sys.argv[1]).read())
build = sys.argv[2]
print(f"webhooks ({build} build): {r['endpoints']} endpoints, {r['deliveries']} deliveries of {r['bodyBytes']} bytes")
print(f"  publish request, no endpoints      {r['publishMsNoEndpoints']:8.1f} ms (median of 5)")
print(f"  publish request, {r['endpoints']:3d} endpoints     {r['publishMsWithEndpoints']:8.1f} ms (median of 5)"
      f"   ratio {r['publishMsWithEndpoints'] / r['publishMsNoEndpoints']:.2f}")
print(f"  deliveries, signed and verified-size {r['deliveriesPerSecond']:8.0f} /s  ({r['deliverySeconds']:.1f} s for all)")
print(f"  receiver floor (16 at a time)        {r['floorPerSecond']:8.0f} /s")
print(f"  deliveries / floor                   {r['deliveriesPerSecond'] / r['floorPerSecond']:8.2f}")

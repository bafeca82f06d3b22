"""Prints the import benchmark's figures (scripts/bench import) from the driver's JSON line."""
import json
import sys

run = json.load(open(sys.argv[1]))
build = sys.argv[2]
n, images = run["n"], run["images"]
total_s = run["totalMs"] / 1000
floor_s = run["floorMs"] / 1000
print(f"import of a WordPress export ({build} build): {n} posts, {images} pictures, {run['fileMiB']:.1f} MiB")
print(f"  upload and check        {run['uploadMs'] / 1000:8.1f} s")
print(f"  read into the preview   {run['previewMs'] / 1000:8.1f} s")
print(f"  written (posts+images)  {run['writeMs'] / 1000:8.1f} s")
print(f"  in all                  {total_s:8.1f} s   ({n / total_s:.1f} posts/s, {run['imagesFetched'] / max(total_s, 1e-9):.1f} pictures/s)")
print(f"  posts written {run['created']}, pictures stored {run['imagesFetched']}, kept at their old address {run['imagesFailed']}, requests to the picture server {run['imagesServed']}")
print(f"  server memory before / at most while importing: {run['rssBeforeMiB']:.0f} / {run['rssPeakMiB']:.0f} MiB")
print(f"floor: the same {n} posts created through the API (8 at a time, no pictures): {floor_s:.1f} s ({n / floor_s:.1f} posts/s)")
print(f"import / floor: {total_s / floor_s:.2f}   target: {n} posts and their pictures in under 300 s -> {'met' if total_s < 300 else 'NOT met'}")

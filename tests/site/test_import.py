"""A real static-site generator as the source of a feed import: Pelican (PyPI) builds a blog with
its Atom and RSS feeds, served over loopback; `feedparser` reads what the feeds hold, and the
import into Pressroom is held to it: one draft per entry with its title, date, address and
pictures brought home; a second import after a new article adds only that one."""
import functools
import http.server
import os
import subprocess
import sys
import threading
import time
import struct
import uuid
import zlib

import feedparser
import pytest
import requests

URL = os.environ["PRESSROOM_URL"].rstrip("/")
PASSWORD = "correct horse battery"


def png(width=64, height=48):
    """A PNG of the given size (RGB, a gradient), written as the PNG specification says."""
    rows = (bytes(v for x in range(width) for v in (x * 4 % 256, y * 5 % 256, 120)) for y in range(height))
    raw = b"".join(b"\x00" + row for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


ARTICLE = """Title: {title}
Date: {date}
Slug: {slug}
Tags: {tags}
{extra}
{body}
"""


def article(content, slug, title, date, body, tags="tides", extra=""):
    with open(os.path.join(content, f"{slug}.md"), "w", encoding="utf-8") as f:
        f.write(ARTICLE.format(title=title, date=date, slug=slug, tags=tags, extra=extra, body=body))


def build(root, site_url):
    conf = os.path.join(root, "pelicanconf.py")
    with open(conf, "w", encoding="utf-8") as f:
        f.write(
            "AUTHOR = 'Ada'\nSITENAME = 'Tide Tables'\n"
            f"SITEURL = '{site_url}'\nFEED_DOMAIN = SITEURL\n"
            "TIMEZONE = 'UTC'\nDEFAULT_LANG = 'en'\n"
            "FEED_ALL_ATOM = 'feeds/all.atom.xml'\nFEED_ALL_RSS = 'feeds/all.rss.xml'\n"
            "RSS_FEED_SUMMARY_ONLY = False\nSTATIC_PATHS = ['images']\n"
        )
    subprocess.run(
        [sys.executable, "-m", "pelican", os.path.join(root, "content"), "-o", os.path.join(root, "output"), "-s", conf, "-q"],
        check=True,
        cwd=root,
    )


@pytest.fixture(scope="module")
def blog(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("pelican"))
    content = os.path.join(root, "content")
    os.makedirs(os.path.join(content, "images"))
    with open(os.path.join(content, "images", "moon.png"), "wb") as f:
        f.write(png())
    os.makedirs(os.path.join(root, "output"))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=os.path.join(root, "output"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site_url = f"http://127.0.0.1:{server.server_address[1]}"
    article(content, "spring-tides", "Spring tides", "2024-03-10 08:00", "When the sun and moon align.\n\n![The moon]({static}/images/moon.png)\n\n- high\n- higher\n")
    article(content, "neap-tides", "Neap tides", "2024-03-17 09:30", "A quarter moon, a gentle sea.")
    article(content, "unfinished", "Unfinished", "2024-03-20 10:00", "Not yet.", extra="Status: draft")
    build(root, site_url)
    yield {"root": root, "content": content, "url": site_url}
    server.shutdown()


def signup():
    email = f"import-{uuid.uuid4().hex[:10]}@site.test"
    r = requests.post(f"{URL}/api/auth/signup", json={"fullName": "Importing Writer", "email": email, "password": PASSWORD}, timeout=30)
    assert r.status_code in (200, 201), r.text
    body = r.json()
    return body["token"], body["_id"]


def until(token, import_id, status):
    deadline = time.time() + 60
    while True:
        view = requests.get(f"{URL}/api/import/{import_id}", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        if view["status"] == status:
            return view
        assert view["status"] not in ("failed", "cancelled", "done"), view
        assert time.time() < deadline, view
        time.sleep(0.2)


def import_feed(token, feed_url):
    auth = {"Authorization": f"Bearer {token}"}
    r = requests.post(f"{URL}/api/import", json={"source": "feed", "url": feed_url}, headers=auth, timeout=30)
    assert r.status_code == 202, r.text
    import_id = r.json()["id"]
    preview = until(token, import_id, "preview")
    r = requests.post(f"{URL}/api/import/{import_id}/confirm", json={}, headers=auth, timeout=30)
    assert r.status_code == 202, r.text
    return preview, until(token, import_id, "done")


def posts_of(token, user_id):
    r = requests.get(f"{URL}/api/post/user/{user_id}/posts?limit=50", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["posts"]


@pytest.mark.parametrize("feed", ["feeds/all.atom.xml", "feeds/all.rss.xml"])
def test_a_pelican_blogs_feed_imports_as_feedparser_reads_it(blog, feed):
    feed_url = f"{blog['url']}/{feed}"
    parsed = feedparser.parse(requests.get(feed_url, timeout=30).content)
    assert not parsed.bozo, parsed.get("bozo_exception")
    # What the source itself publishes: its two articles, not the draft.
    titles = sorted(e.title for e in parsed.entries)
    assert titles == ["Neap tides", "Spring tides"]

    token, user_id = signup()
    preview, done = import_feed(token, feed_url)
    assert preview["counts"]["posts"] == len(parsed.entries), preview
    # A feed says nothing of drafts: every entry arrives as one.
    assert preview["counts"]["drafts"] == len(parsed.entries)
    assert done["report"]["created"] == len(parsed.entries), done
    assert done["report"]["imagesFetched"] == 1, done["warnings"]
    posts = {p["title"]: p for p in posts_of(token, user_id)}
    assert sorted(posts) == titles
    for entry in parsed.entries:
        post = posts[entry.title]
        assert post["status"] == "draft"
        assert post["importedFrom"]["source"] == "feed"
        assert post["importedFrom"]["url"] == entry.link
        # The date the feed gives is the post's.
        when = time.strftime("%Y-%m-%dT%H:%M:%S", entry.published_parsed if "published_parsed" in entry else entry.updated_parsed)
        assert post["createdAt"].startswith(when), (post["createdAt"], when)
    spring = posts["Spring tides"]
    image = next(b for b in spring["blocks"] if b["type"] == "image")
    assert image["data"]["file"]["url"].startswith("/media/"), image
    assert requests.get(f"{URL}{image['data']['file']['url']}", timeout=30).status_code == 200
    kinds = [b["type"] for b in spring["blocks"]]
    assert "list" in kinds, kinds


def test_reading_the_feed_again_adds_only_the_new_article(blog):
    feed_url = f"{blog['url']}/feeds/all.atom.xml"
    token, user_id = signup()
    _, done = import_feed(token, feed_url)
    assert done["report"]["created"] == 2, done
    article(blog["content"], "king-tides", "King tides", "2024-04-01 07:00", "The highest of the year.")
    build(blog["root"], blog["url"])
    parsed = feedparser.parse(requests.get(feed_url, timeout=30).content)
    assert len(parsed.entries) == 3
    preview, done = import_feed(token, feed_url)
    assert preview["warnings"][0].startswith("2 of these were imported before"), preview
    assert done["report"]["created"] == 1 and done["report"]["skipped"] == 2, done
    assert sorted(p["title"] for p in posts_of(token, user_id)) == ["King tides", "Neap tides", "Spring tides"]

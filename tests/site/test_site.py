"""Feeds, structured data and sitemaps as feed readers, search engines and crawlers read them:
parsed by feedparser, extruct and lxml against a running server."""
import os
import uuid

import extruct
import feedparser
import pytest
import requests
from lxml import etree

URL = os.environ["PRESSROOM_URL"].rstrip("/")
PASSWORD = "correct horse battery"
SCHEMA = etree.XMLSchema(etree.parse(os.path.join(os.path.dirname(__file__), "sitemap.xsd")))


def signup(name):
    email = f"site-{uuid.uuid4().hex[:10]}@site.test"
    r = requests.post(f"{URL}/api/auth/signup", json={"fullName": name, "email": email, "password": PASSWORD}, timeout=30)
    assert r.status_code in (200, 201), r.text
    r = requests.post(f"{URL}/api/auth/login", json={"email": email, "password": PASSWORD}, timeout=30)
    assert r.status_code == 200, r.text
    body = r.json()
    return body["token"], body["user"]["_id"] if "user" in body and "_id" in body["user"] else None


def create(token, body):
    r = requests.post(f"{URL}/api/post/post-create", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()["post"]


@pytest.fixture(scope="module")
def site():
    tag = f"feedtag{uuid.uuid4().hex[:6]}"
    token, _ = signup("Feed Writer")
    post = create(token, {
        "title": "Tides & <currents>",
        "tags": [tag],
        "language": "en",
        "blocks": [
            {"id": "p1", "type": "paragraph", "data": {"text": "The moon pulls the <b>sea</b>."}},
            {"id": "l1", "type": "list", "data": {"style": "unordered", "items": ["spring", "neap"]}},
        ],
    })
    return {"tag": tag, "post": post, "author": post["author"]["_id"]}


def parsed(path):
    r = requests.get(f"{URL}{path}", timeout=30)
    assert r.status_code == 200, f"{path}: {r.status_code}"
    feed = feedparser.parse(r.content, response_headers={"content-type": r.headers["content-type"]})
    assert not feed.bozo, f"{path}: {feed.get('bozo_exception')}"
    return feed


@pytest.mark.parametrize("kind", ["feed.xml", "rss.xml"])
def test_site_feeds_parse_with_the_post_in_full(site, kind):
    feed = parsed(f"/{kind}")
    assert feed.version in ("atom10", "rss20"), feed.version
    entry = next(e for e in feed.entries if e.title == "Tides & <currents>")
    assert entry.link == f"http://127.0.0.1:8080/post/{site['post']['slug']}"
    html = entry.content[0].value
    assert "The moon pulls the <b>sea</b>." in html
    assert "<li>spring</li>" in html
    assert entry.get("published_parsed") is not None
    assert any(t.term == site["tag"] for t in entry.tags)
    assert any(link.get("rel") == "self" for link in feed.feed.links)


@pytest.mark.parametrize("kind", ["feed.xml", "rss.xml"])
def test_author_and_tag_feeds_parse(site, kind):
    for path in (f"/author-profile/{site['author']}/{kind}", f"/tag/{site['tag']}/{kind}"):
        feed = parsed(path)
        assert [e.title for e in feed.entries] == ["Tides & <currents>"], path


def test_unknown_feeds_are_404():
    for path in ("/tag/nosuchtag0000/feed.xml", "/author-profile/64b7f0000000000000000001/rss.xml", "/category/nosuchcat0000/feed.xml"):
        assert requests.get(f"{URL}{path}", timeout=30).status_code == 404, path


def test_post_page_json_ld_reads_as_a_blog_posting(site):
    r = requests.get(f"{URL}/post/{site['post']['slug']}", timeout=30)
    assert r.status_code == 200
    data = extruct.extract(r.text, base_url=URL, syntaxes=["json-ld", "opengraph"])
    posting = next(d for d in data["json-ld"] if d.get("@type") == "BlogPosting")
    assert posting["headline"] == "Tides & <currents>"
    assert posting["author"]["@type"] == "Person"
    assert posting["inLanguage"] == "en"
    assert posting["mainEntityOfPage"]["@id"].endswith(f"/post/{site['post']['slug']}")
    og = dict(data["opengraph"][0]["properties"])
    assert og["og:title"] == "Tides & <currents>"
    assert og["og:type"] == "article"
    assert og["og:image:width"] == "1200"


def test_author_and_tag_pages_carry_their_structured_data(site):
    r = requests.get(f"{URL}/author-profile/{site['author']}", timeout=30)
    assert r.status_code == 200
    data = extruct.extract(r.text, base_url=URL, syntaxes=["json-ld"])
    assert any(d.get("@type") == "ProfilePage" and d["mainEntity"]["name"] == "Feed Writer" for d in data["json-ld"])
    r = requests.get(f"{URL}/tag/{site['tag']}", timeout=30)
    data = extruct.extract(r.text, base_url=URL, syntaxes=["json-ld"])
    assert any(d.get("@type") == "BreadcrumbList" for d in data["json-ld"])


def test_sitemaps_are_valid_against_the_protocol_schema(site):
    r = requests.get(f"{URL}/sitemap.xml", timeout=30)
    assert r.status_code == 200
    index = etree.fromstring(r.content)
    SCHEMA.assertValid(index)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    children = [loc.text for loc in index.findall("s:sitemap/s:loc", ns)]
    assert children, "the index names its sitemaps"
    found = set()
    for loc in children:
        path = loc.replace("http://127.0.0.1:8080", "")
        child = requests.get(f"{URL}{path}", timeout=30)
        assert child.status_code == 200, path
        doc = etree.fromstring(child.content)
        SCHEMA.assertValid(doc)
        found.update(u.text for u in doc.findall("s:url/s:loc", ns))
    assert f"http://127.0.0.1:8080/post/{site['post']['slug']}" in found
    assert f"http://127.0.0.1:8080/tag/{site['tag']}" in found
    assert f"http://127.0.0.1:8080/author-profile/{site['author']}" in found


# ── List pages: their first screen of cards in the HTML ────────────────────────────────────────

import json  # noqa: E402
import struct  # noqa: E402
import zlib  # noqa: E402

from lxml import html as lxml_html  # noqa: E402


def png(width, height):
    """A plain PNG of `width`×`height` (a grey gradient), as a data URL."""
    rows = b"".join(b"\x00" + bytes((x * 255 // max(1, width - 1)) for x in range(width)) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    raw += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    import base64

    return "data:image/png;base64," + base64.b64encode(raw).decode()


def page(path, status=200):
    r = requests.get(f"{URL}{path}", timeout=30)
    assert r.status_code == status, f"{path}: {r.status_code}"
    return lxml_html.fromstring(r.text)


def cards(doc):
    """The cards in the page's main element: (title, link) of each, in order."""
    found = []
    for article in doc.xpath("//main[@id='main']//ul[@class='post-grid']/li/article[@class='post-card']"):
        link = article.xpath(".//h2[@class='post-card__title']/a")[0]
        found.append((link.text_content(), link.get("href")))
    return found


def initial_list(doc):
    data = json.loads(doc.xpath("//script[@id='initial-data']")[0].text)
    return data


@pytest.fixture(scope="module")
def listed():
    word = uuid.uuid4().hex[:6]
    token, _ = signup("Card Writer")
    headers = {"Authorization": f"Bearer {token}"}
    r = requests.post(f"{URL}/api/category/", json={"name": f"Cards {word}", "slug": f"cards-{word}", "description": "Cards in a row"}, headers=headers, timeout=30)
    assert r.status_code in (200, 201), r.text
    category = r.json().get("category") or r.json().get("data") or r.json()
    tag = f"cardtag{word}"
    body = lambda title, **extra: {  # noqa: E731
        "title": title,
        "tags": [tag],
        "category": category["_id"],
        "blocks": [{"id": "p1", "type": "paragraph", "data": {"text": f"{title}: the first words of the post."}}],
        **extra,
    }
    private = create(token, body("A private card", visibility="Private"))
    draft = create(token, body("A draft card", isPublished=False))
    older = create(token, body("An older card"))
    shown = create(token, body("A card with a picture", thumbnail=png(64, 36)))
    return {"token": token, "tag": tag, "category": category, "shown": shown, "older": older, "hidden": [private, draft]}


def test_list_pages_carry_the_cards_the_api_gives_a_guest(listed):
    author = listed["shown"]["author"]["_id"]
    pages = [
        ("/", f"{URL}/api/post/latest-post/latest?limit=12", "Stories"),
        (f"/tag/{listed['tag']}", f"{URL}/api/post/public/posts?limit=12&tag={listed['tag']}", f"#{listed['tag']}"),
        (f"/category/{listed['category']['slug']}", f"{URL}/api/post/public/posts?limit=12&category={listed['category']['slug']}", listed["category"]["name"]),
        (f"/author-profile/{author}", f"{URL}/api/post/user/{author}/posts?limit=12", "Card Writer Offline"),
    ]
    for path, api, heading in pages:
        doc = page(path)
        assert doc.xpath("//main[@id='main']//h1")[0].text_content() == heading, path
        api_posts = requests.get(api, timeout=30).json()["posts"]
        shown = cards(doc)
        assert shown == [(p["title"], f"/post/{p['slug']}") for p in api_posts], path
        titles = [t for t, _ in shown]
        assert "A card with a picture" in titles and "An older card" in titles, path
        assert titles.index("A card with a picture") < titles.index("An older card"), path
        for hidden in listed["hidden"]:
            assert hidden["title"] not in titles, f"{path} shows {hidden['title']}"
            assert hidden["_id"] not in doc.text_content()
        data = initial_list(doc)
        assert data["path"] == path
        assert [p["_id"] for p in data["list"]["posts"]] == [p["_id"] for p in api_posts], path
        assert all(p["blocks"] == [] for p in data["list"]["posts"])
        # The card's parts, as the app draws them.
        card = doc.xpath(f"//article[@aria-labelledby='post-{listed['shown']['_id']}-title']")[0]
        img = card.xpath(".//img[@class='post-card__thumb']")[0]
        # The first card of a list fetches its picture first, as the app's does; the others wait.
        first = titles[0] == "A card with a picture"
        expected = ("eager", "high") if first else ("lazy", None)
        assert (img.get("width"), img.get("height")) == ("64", "36"), path
        assert (img.get("loading"), img.get("fetchpriority")) == expected, path
        assert card.xpath(".//a[@class='post-card__author']")[0].get("href") == f"/author-profile/{listed['shown']['author']['_id']}"
        assert card.xpath(".//a[@class='category-pill']")[0].text_content() == listed["category"]["name"]
        assert card.xpath(".//a[@class='tag']")[0].text_content() == f"#{listed['tag']}"
        assert "the first words of the post" in card.xpath(".//p[@class='post-card__excerpt']")[0].text_content()
        assert card.xpath(".//time")[0].get("datetime") == listed["shown"]["createdAt"]
    # The author's page carries their profile as the API gives it to a guest.
    data = initial_list(page(f"/author-profile/{author}"))
    assert data["profile"] == requests.get(f"{URL}/api/user/get-single-user/{author}", timeout=30).json()["data"]
    assert data["list"]["filter"] == {"userId": author, "sort": "newest"}
    # The home page's count is the public list's total, as the API counts it for a guest.
    doc = page("/")
    count = requests.get(f"{URL}/api/post/count/all", timeout=30).json()["count"]
    assert initial_list(doc)["counts"]["allPostsCount"] == count


def test_a_written_post_shows_on_the_pages_at_once_and_leaves_them_when_deleted(listed):
    headers = {"Authorization": f"Bearer {listed['token']}"}
    word = uuid.uuid4().hex[:6]
    tag = f"gonetag{word}"
    post = create(listed["token"], {"title": f"Here then gone {word}", "tags": [tag], "blocks": [{"id": "p1", "type": "paragraph", "data": {"text": "Brief."}}]})
    paths = ["/", f"/tag/{tag}"]
    for path in paths:
        # Read twice: the second answer comes from the guest cache.
        for _ in range(2):
            assert post["title"] in [t for t, _ in cards(page(path))], path
    r = requests.patch(f"{URL}/api/post/update/{post['slug']}", json={"title": f"Renamed {word}"}, headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    for path in paths:
        titles = [t for t, _ in cards(page(path))]
        assert f"Renamed {word}" in titles and post["title"] not in titles, path
    r = requests.patch(f"{URL}/api/post/update/{r.json()['post']['slug']}", json={"visibility": "Private"}, headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    assert f"Renamed {word}" not in [t for t, _ in cards(page("/"))]
    page(f"/tag/{tag}", status=404)
    r = requests.patch(f"{URL}/api/post/update/{r.json()['post']['slug']}", json={"visibility": "Public"}, headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    for path in paths:
        assert f"Renamed {word}" in [t for t, _ in cards(page(path))], path
    r = requests.delete(f"{URL}/api/post/delete/{post['_id']}", headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    # The write observer drops the cached pages before the delete answers (docs/decisions.md).
    assert f"Renamed {word}" not in [t for t, _ in cards(page("/"))]
    page(f"/tag/{tag}", status=404)


# ── Series: the page, its feeds and a part's page ──────────────────────────────────────────────

@pytest.fixture(scope="module")
def series():
    token, _ = signup("Series Writer")
    auth = {"Authorization": f"Bearer {token}"}
    title = f"Harbour Logs {uuid.uuid4().hex[:6]}"
    r = requests.post(f"{URL}/api/series", json={"title": title, "description": "Weekly notes from the harbour."}, headers=auth, timeout=30)
    assert r.status_code == 201, r.text
    made = r.json()["series"]
    first = create(token, {"title": "Log one: fog", "blocks": [{"id": "p1", "type": "paragraph", "data": {"text": "Fog lifted at noon."}}]})
    paid = create(token, {"title": "Log two: gales", "audience": "subscribers", "blocks": [
        {"id": "p1", "type": "paragraph", "data": {"text": "Gales from the west. " * 20}},
        {"id": "p2", "type": "paragraph", "data": {"text": "Only subscribers read this line."}},
    ]})
    for post in (first, paid):
        r = requests.post(f"{URL}/api/series/{made['_id']}/posts", json={"postId": post["_id"]}, headers=auth, timeout=30)
        assert r.status_code == 200, r.text
    return {"slug": made["slug"], "title": title, "first": first, "paid": paid}


def test_a_series_page_reads_as_a_creative_work_series_with_its_parts_in_order(series):
    r = requests.get(f"{URL}/series/{series['slug']}", timeout=30)
    assert r.status_code == 200
    data = extruct.extract(r.text, base_url=URL, syntaxes=["json-ld"])
    work = next(d for d in data["json-ld"] if d.get("@type") == "CreativeWorkSeries")
    assert work["name"] == series["title"]
    assert [p["headline"] for p in work["hasPart"]] == ["Log one: fog", "Log two: gales"]
    assert [p["position"] for p in work["hasPart"]] == [1, 2]
    assert work["hasPart"][1]["isAccessibleForFree"] is False
    assert "Only subscribers read this line." not in r.text


def test_a_parts_page_names_its_series_and_position(series):
    r = requests.get(f"{URL}/post/{series['paid']['slug']}", timeout=30)
    assert r.status_code == 200
    data = extruct.extract(r.text, base_url=URL, syntaxes=["json-ld"])
    posting = next(d for d in data["json-ld"] if d.get("@type") == "BlogPosting")
    assert posting["isPartOf"]["@type"] == "CreativeWorkSeries"
    assert posting["isPartOf"]["name"] == series["title"]
    assert posting["isPartOf"]["url"].endswith(f"/series/{series['slug']}")
    assert posting["position"] == 2
    assert "Part 2 of 2" in r.text


@pytest.mark.parametrize("kind", ["feed.xml", "rss.xml"])
def test_series_feeds_parse_with_the_parts_and_teasers_only(series, kind):
    feed = parsed(f"/series/{series['slug']}/{kind}")
    assert feed.feed.title == series["title"]
    assert sorted(e.title for e in feed.entries) == ["Log one: fog", "Log two: gales"]
    assert all("Only subscribers read this line." not in (e.get("content", [{}])[0].get("value", "") + e.get("summary", "")) for e in feed.entries)


def test_the_sitemap_lists_the_series(series):
    r = requests.get(f"{URL}/sitemap-series-1.xml", timeout=30)
    assert r.status_code == 200
    doc = etree.fromstring(r.content)
    SCHEMA.assertValid(doc)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert f"http://127.0.0.1:8080/series/{series['slug']}" in [u.text for u in doc.findall("s:url/s:loc", ns)]

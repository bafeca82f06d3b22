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

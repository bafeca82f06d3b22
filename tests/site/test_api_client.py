"""An outside tool's view of the API: a Python client generated from `/api/openapi.json` by
`openapi-python-client` lists a writer's posts with a personal API key, read into its own
models, and the key's scopes hold (a route outside them answers 403 `insufficient_scope`)."""
import importlib
import os
import subprocess
import sys
import tempfile
import uuid

import pytest
import requests

URL = os.environ["PRESSROOM_URL"].rstrip("/")
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def client_package():
    out = tempfile.mkdtemp(prefix="pressroom-client-")
    doc = os.path.join(out, "openapi.json")
    with open(doc, "wb") as f:
        f.write(requests.get(f"{URL}/api/openapi.json", timeout=30).content)
    generator = os.path.join(os.path.dirname(sys.executable), "openapi-python-client")
    subprocess.run(
        [generator, "generate", "--path", doc, "--output-path", os.path.join(out, "client"), "--overwrite"],
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, os.path.join(out, "client"))
    return importlib.import_module("pressroom_api_client")


def writer_with_key(scopes):
    email = f"tool-{uuid.uuid4().hex[:10]}@site.test"
    r = requests.post(f"{URL}/api/auth/signup", json={"fullName": "Tool Writer", "email": email, "password": PASSWORD}, timeout=30)
    assert r.status_code == 201, r.text
    session = r.json()["token"]
    user_id = r.json()["_id"]
    r = requests.post(
        f"{URL}/api/keys",
        json={"name": "Static mirror", "scopes": scopes, "expiresInDays": 30},
        headers={"Authorization": f"Bearer {session}"},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return user_id, session, r.json()["key"]


def test_a_generated_client_lists_a_writers_posts_with_a_key(client_package):
    user_id, session, key = writer_with_key(["read:posts"])
    for title in ("First light", "Second wind"):
        r = requests.post(
            f"{URL}/api/post/post-create",
            json={"title": title, "blocks": [{"id": "p1", "type": "paragraph", "data": {"text": "Words."}}]},
            headers={"Authorization": f"Bearer {session}"},
            timeout=30,
        )
        assert r.status_code == 201, r.text
    listing = importlib.import_module("pressroom_api_client.api.post.get_apipostuseruser_idposts")
    client = client_package.AuthenticatedClient(base_url=URL, token=key)
    response = listing.sync_detailed(user_id=user_id, client=client)
    assert response.status_code == 200, response.content
    # The answer read into the client's own models (their types from the document's schemas).
    answer = response.parsed
    assert type(answer).__module__.startswith("pressroom_api_client.models"), type(answer)
    titles = {p.title for p in answer.posts}
    assert {"First light", "Second wind"} <= titles

    earnings = importlib.import_module("pressroom_api_client.api.earning.get_apiearningmy_earnings")
    refused = earnings.sync_detailed(client=client)
    assert refused.status_code == 403
    assert b"insufficient_scope" in refused.content and b"read:earnings" in refused.content

"""A push service on loopback that checks what the server sends with independent code: PyPI
`py-vapid` verifies the VAPID token (RFC 8292) with the key it carries and reads its claims, and
`http-ece` decrypts the aes128gcm payload (RFC 8291) with a subscription key pair made here.

Prints one JSON line at start: {"endpoint", "p256dh", "auth"} (the subscription a browser would
hand the app); then one JSON line per message received: its path, the `aud`, `exp` and `sub`
claims, whether the token verified with the key `k`, the TTL, Urgency, Topic and
Content-Encoding headers and the decrypted text. Answers 201 to each.

    python push_recorder.py
"""

import base64
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt as vapid_jwt


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


PRIVATE = ec.generate_private_key(ec.SECP256R1())
PUBLIC = PRIVATE.public_key().public_bytes(
    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
)
AUTH = os.urandom(16)


def vapid(header: str) -> dict:
    """The claims of an `Authorization: vapid t=…, k=…` header, checked with py-vapid."""
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "vapid":
        return {"verified": False, "why": "scheme " + scheme}
    parts = dict(p.strip().split("=", 1) for p in rest.split(",") if "=" in p)
    try:
        claims = vapid_jwt.decode(parts["t"], parts["k"])
    except Exception as e:  # the signature does not verify
        return {"verified": False, "why": repr(e)}
    return {"verified": True, "k": parts["k"], **claims}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        record = {
            "path": self.path,
            "receivedAt": int(time.time()),
            "ttl": self.headers.get("TTL"),
            "urgency": self.headers.get("Urgency"),
            "topic": self.headers.get("Topic"),
            "encoding": self.headers.get("Content-Encoding"),
            "vapid": vapid(self.headers.get("Authorization", "")),
        }
        try:
            plain = http_ece.decrypt(
                body, private_key=PRIVATE, auth_secret=AUTH, version="aes128gcm"
            )
            record["payload"] = plain.decode()
        except Exception as e:
            record["payload"] = None
            record["why"] = repr(e)
        print(json.dumps(record), flush=True)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    server = HTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    print(
        json.dumps(
            {
                "endpoint": f"http://127.0.0.1:{port}/push/recorder",
                "p256dh": b64url(PUBLIC),
                "auth": b64url(AUTH),
            }
        ),
        flush=True,
    )
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())

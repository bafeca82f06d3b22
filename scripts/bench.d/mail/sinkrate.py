"""The SMTP sink's raw acceptance rate (scripts/bench mail): N messages of the size of a new-post
email sent straight to the sink over CONNECTIONS connections at once, with Python's smtplib.
Prints one JSON line: {"n", "seconds", "rate"}."""
import json
import smtplib
import sys
import threading
import time
from email.message import EmailMessage

port, n, connections, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])


def message(i):
    m = EmailMessage()
    m["From"] = "Pressroom <noreply@pressroom.test>"
    m["To"] = f"raw-{i}@bench.test"
    m["Subject"] = "Raw acceptance"
    m.set_content("x" * size)
    return m


def worker(k):
    with smtplib.SMTP("127.0.0.1", port) as s:
        for i in range(k, n, connections):
            s.send_message(message(i))


threads = [threading.Thread(target=worker, args=(k,)) for k in range(connections)]
start = time.monotonic()
for t in threads:
    t.start()
for t in threads:
    t.join()
seconds = time.monotonic() - start
print(json.dumps({"n": n, "seconds": seconds, "rate": n / seconds}))

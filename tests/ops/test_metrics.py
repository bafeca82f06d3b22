"""GET /metrics of a running server, read with the Prometheus client library's own parser.

Run by scripts/test against the suite server (PRESSROOM_URL, reached from loopback, so the
metrics are served without a token): the exposition parses, every family the operators' issue
lists is there, route labels are templates, counters follow requests and realtime events, and
the presence gauges follow sockets (two people in three tabs: users +2, connections +3).
"""

import os
import time
import unittest
import uuid

import requests
import socketio
from prometheus_client.parser import text_string_to_metric_families

URL = os.environ["PRESSROOM_URL"]

FAMILIES = [
    # presence
    "pressroom_online_users",
    "pressroom_online_guests",
    "pressroom_online_sockets",
    "pressroom_cluster_online_users",
    "pressroom_socket_connects",
    "pressroom_socket_disconnects",
    # realtime
    "pressroom_realtime_events",
    "pressroom_realtime_fanout_seconds",
    "pressroom_broker_messages",
    "pressroom_broker_lag_seconds",
    # HTTP
    "pressroom_http_requests",
    "pressroom_http_request_duration_seconds",
    # storage
    "pressroom_db_up",
    "pressroom_redis_up",
    "pressroom_db_operation_duration_seconds",
    "pressroom_db_errors",
    "pressroom_redis_operation_duration_seconds",
    "pressroom_redis_errors",
    "pressroom_index_ready",
    "pressroom_read_index_generation",
    "pressroom_index_rebuild_seconds",
    # work
    "pressroom_job_runs",
    "pressroom_job_failures",
    "pressroom_job_last_run_timestamp_seconds",
    "pressroom_job_period_seconds",
    "pressroom_mail",
    "pressroom_payment_provider_calls",
    "pressroom_payment_provider_failures",
    "pressroom_rate_limit_refusals",
    # process and build
    "process_resident_memory_bytes",
    "process_open_fds",
    "pressroom_build_info",
]


def scrape():
    res = requests.get(f"{URL}/metrics", timeout=10)
    assert res.status_code == 200, f"/metrics answered {res.status_code}"
    assert res.headers["content-type"].startswith("text/plain"), res.headers["content-type"]
    return {f.name: f for f in text_string_to_metric_families(res.text)}


def value(families, name, sample=None, **labels):
    """The sum of the samples of a family (or of one sample name) whose labels include `labels`."""
    family = families[name]
    sample = sample or name
    total = 0.0
    for s in family.samples:
        if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()):
            total += s.value
    return total


def signup():
    email = f"ops-{uuid.uuid4().hex[:12]}@example.com"
    res = requests.post(
        f"{URL}/api/auth/signup",
        json={"fullName": "Ops Reader", "email": email, "password": "correct horse battery", "sendEmail": False},
        timeout=10,
    )
    assert res.status_code == 201, res.text
    return res.json()["token"]


def wait_for(check, what, limit=10.0):
    deadline = time.time() + limit
    last = None
    while time.time() < deadline:
        last = check()
        if last is True:
            return
        time.sleep(0.2)
    raise AssertionError(f"{what}: {last}")


class Metrics(unittest.TestCase):
    def test_every_listed_family_is_exported_in_a_format_prometheus_reads(self):
        # A request first, so a fresh server has HTTP series too.
        self.assertEqual(requests.get(f"{URL}/health", timeout=10).status_code, 200)
        families = scrape()
        missing = [f for f in FAMILIES if f not in families]
        self.assertEqual(missing, [], "families missing from /metrics")
        self.assertEqual(families["pressroom_online_users"].type, "gauge")
        self.assertEqual(families["pressroom_http_requests"].type, "counter")
        self.assertEqual(families["pressroom_http_request_duration_seconds"].type, "histogram")
        self.assertEqual(families["pressroom_realtime_fanout_seconds"].type, "histogram")
        self.assertEqual(value(families, "pressroom_db_up"), 1.0)
        self.assertEqual(value(families, "pressroom_redis_up"), 1.0)
        build = families["pressroom_build_info"].samples[0]
        self.assertTrue(build.labels["version"])
        self.assertIn("commit", build.labels)

    def test_http_counters_move_and_are_labelled_by_route_template(self):
        before = scrape()
        slug = f"no-such-post-{uuid.uuid4().hex[:8]}"
        for _ in range(3):
            requests.get(f"{URL}/api/public/post/{slug}", timeout=10)
        after = scrape()
        route = "/api/public/post/{slug}"
        moved = value(after, "pressroom_http_requests", "pressroom_http_requests_total", route=route, method="GET") - value(
            before, "pressroom_http_requests", "pressroom_http_requests_total", route=route, method="GET"
        )
        self.assertGreaterEqual(moved, 3)
        timed = value(after, "pressroom_http_request_duration_seconds", "pressroom_http_request_duration_seconds_count", route=route)
        self.assertGreaterEqual(timed, 3)
        routes = {s.labels["route"] for s in after["pressroom_http_requests"].samples}
        self.assertFalse([r for r in routes if slug in r], "a raw path became a label")
        self.assertIn("/metrics", routes)

    def test_presence_gauges_follow_sockets_and_events_are_counted(self):
        tokens = [signup(), signup()]
        before = scrape()
        users0 = value(before, "pressroom_online_users")
        sockets0 = value(before, "pressroom_online_sockets")
        connects0 = value(before, "pressroom_socket_connects", "pressroom_socket_connects_total")
        events0 = value(before, "pressroom_realtime_events", "pressroom_realtime_events_total", event="onlineUsersCount")
        fanouts0 = value(before, "pressroom_realtime_fanout_seconds", "pressroom_realtime_fanout_seconds_count")
        # Two people in three tabs: the first on two (one websocket, one long-polling).
        tabs = []
        for token, transports in [(tokens[0], ["websocket"]), (tokens[0], ["polling"]), (tokens[1], ["websocket"])]:
            client = socketio.Client(reconnection=False)
            client.connect(URL, auth={"token": token}, transports=transports, wait_timeout=10)
            tabs.append(client)
        try:
            def grown():
                now = scrape()
                users = value(now, "pressroom_online_users") - users0
                sockets = value(now, "pressroom_online_sockets") - sockets0
                return True if (users, sockets) == (2, 3) else f"users +{users}, sockets +{sockets}"

            wait_for(grown, "online users and sockets after three tabs of two people")
            now = scrape()
            self.assertGreaterEqual(value(now, "pressroom_online_sockets", transport="polling") + 0, 1)
            self.assertGreaterEqual(
                value(now, "pressroom_socket_connects", "pressroom_socket_connects_total") - connects0, 3
            )
            self.assertGreater(
                value(now, "pressroom_realtime_events", "pressroom_realtime_events_total", event="onlineUsersCount"), events0
            )
            self.assertGreater(
                value(now, "pressroom_realtime_fanout_seconds", "pressroom_realtime_fanout_seconds_count"), fanouts0
            )
        finally:
            for client in tabs:
                client.disconnect()

        def back():
            now = scrape()
            users = value(now, "pressroom_online_users") - users0
            sockets = value(now, "pressroom_online_sockets") - sockets0
            return True if (users, sockets) == (0, 0) else f"users +{users}, sockets +{sockets}"

        wait_for(back, "online users and sockets after the tabs closed", limit=15.0)
        self.assertGreaterEqual(
            value(scrape(), "pressroom_socket_disconnects", "pressroom_socket_disconnects_total"), 3
        )

    def test_metrics_are_refused_to_a_request_that_came_through_a_proxy(self):
        res = requests.get(f"{URL}/metrics", headers={"X-Forwarded-For": "203.0.113.7"}, timeout=10)
        self.assertEqual(res.status_code, 404)
        self.assertNotIn("pressroom_", res.text)


if __name__ == "__main__":
    unittest.main(verbosity=2)

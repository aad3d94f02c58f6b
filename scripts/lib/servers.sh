# Test servers for scripts/test and the benchmarks: httpbin, nginx (TLS + HTTP/2 + plain HTTP, static JSON with
# ETag/Last-Modified and Cache-Control routes), and the project's own Python servers (fault server, API replica).
# Every server listens on 127.0.0.1 only, on a free port, and is stopped by the EXIT trap this file installs.
# shellcheck shell=bash

SERVERS_PY=/usr/bin/python3   # Debian's python: the one that sees python3-httpbin
# shellcheck source=scripts/lib/packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/packages.sh"
# shellcheck source=scripts/lib/connectivity.sh
source "$(dirname "${BASH_SOURCE[0]}")/connectivity.sh"
SERVER_PIDS=()

servers_log() { echo "servers: $*" >&2; }

# Installs what is missing on Debian/Ubuntu as root; elsewhere says what to install and stops.
servers_require_packages() {
  local missing=()
  command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  # The curl-command tests run the printed commands with the real curl.
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  # ...in each shell a person pastes them into: bash, zsh and dash.
  command -v zsh >/dev/null 2>&1 || missing+=(zsh)
  command -v dash >/dev/null 2>&1 || missing+=(dash)
  # The browse end-to-end tests run both apps inside tmux.
  command -v tmux >/dev/null 2>&1 || missing+=(tmux)
  [[ -x $SERVERS_PY ]] && "$SERVERS_PY" -c 'import httpbin' >/dev/null 2>&1 || missing+=(python3-httpbin)
  # The cookie tests refuse public suffixes by the system's list (Debian's publicsuffix; elsewhere they skip).
  [[ $(uname -s) != Linux || -f /usr/share/publicsuffix/public_suffix_list.dat ]] || missing+=(publicsuffix)
  # The WebSocket tests talk to a server built on the `websockets` package (PyPI's, as Debian packages it).
  [[ -x $SERVERS_PY ]] && "$SERVERS_PY" -c 'import websockets' >/dev/null 2>&1 || missing+=(python3-websockets)
  # The recordings the tests write are checked with jsonschema (Debian's) and haralyzer (PyPI's, through pip).
  [[ -x $SERVERS_PY ]] && "$SERVERS_PY" -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
  [[ -x $SERVERS_PY ]] && "$SERVERS_PY" -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
  mapfile -t -O "${#missing[@]}" missing < <(packages_missing_for_build)
  # The proxy tests go through a real proxy.
  mapfile -t -O "${#missing[@]}" missing < <(connectivity_missing_packages)
  ((${#missing[@]} == 0)) && { servers_require_har_checkers; return 0; }
  if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "On macOS: brew install nginx openssl curl tmux tinyproxy, and pip install httpbin websockets (then set SERVERS_PY)." >&2
  fi
  packages_install "${missing[@]}"
  servers_require_har_checkers
}

# The independent HAR readers for Tests/HAR/validate_har.py: jsonschema comes from Debian's packages (above), haralyzer
# from PyPI for Debian's python as root; elsewhere it is named and the run stops. A machine that reaches no package
# index (pip fails) checks with the schema alone and says so: ERRAND_HAR_SCHEMA_ONLY tells the checker.
servers_require_har_checkers() {
  "$SERVERS_PY" -c 'import jsonschema, haralyzer' >/dev/null 2>&1 && return 0
  if [[ $(id -u) != 0 ]]; then
    echo "The HAR checks need jsonschema and haralyzer: $SERVERS_PY -m pip install jsonschema haralyzer" >&2
    exit 1
  fi
  echo "servers: installing haralyzer from PyPI for $SERVERS_PY" >&2
  if ! "$SERVERS_PY" -m pip install -q --break-system-packages haralyzer >&2; then
    echo "servers: PyPI is out of reach; recordings are checked against the HAR 1.2 schema only, without haralyzer" >&2
    export ERRAND_HAR_SCHEMA_ONLY=1
  fi
}

# Checks every HAR file the tests wrote into ERRAND_HAR_DIR with the HAR 1.2 schema and haralyzer.
servers_check_har_files() {
  local dir=$1
  compgen -G "$dir/*.har" >/dev/null || { servers_log "no HAR files to check in $dir"; return 0; }
  "$SERVERS_PY" "$(dirname "${BASH_SOURCE[0]}")/../../Tests/HAR/validate_har.py" "$dir"
}

servers_free_port() {
  "$SERVERS_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Waits until something accepts TCP connections on the port (at most ~15 s).
servers_wait_port() {
  local port=$1 name=$2
  "$SERVERS_PY" - "$port" <<'PY' || { servers_log "$name did not start on port $port"; servers_dump_logs; exit 1; }
import socket, sys, time
port = int(sys.argv[1])
deadline = time.time() + 15
while time.time() < deadline:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
PY
}

servers_dump_logs() {
  for f in "$SERVERS_STATE"/*.log; do
    [[ -f $f ]] || continue
    echo "--- $f" >&2
    tail -n 20 "$f" >&2
  done
}

servers_stop() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${SERVER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n ${SERVERS_STATE:-} && -f $SERVERS_STATE/nginx.pid ]] && kill "$(cat "$SERVERS_STATE/nginx.pid")" 2>/dev/null || true
  [[ -n ${SERVERS_STATE:-} && ${SERVERS_KEEP_STATE:-0} != 1 ]] && rm -rf "$SERVERS_STATE"
  return 0
}

servers_make_certificates() {
  local dir=$SERVERS_STATE/tls
  mkdir -p "$dir"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Errand Test CA" \
    -keyout "$dir/ca.key" -out "$dir/ca.pem" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" >/dev/null 2>&1
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" >/dev/null 2>&1
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$dir/ext.cnf"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$dir/ext.cnf" -out "$dir/server.pem" >/dev/null 2>&1
  # A second, unrelated key: its pin must never match the server's.
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Other" -keyout "$dir/other.key" -out "$dir/other.pem" >/dev/null 2>&1
  export ERRAND_TEST_CA=$dir/ca.pem
  # sha256//base64 of the server's public key, as libcurl's CURLOPT_PINNEDPUBLICKEY takes it.
  ERRAND_TEST_PIN="sha256//$(openssl x509 -in "$dir/server.pem" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl base64 -A)"
  ERRAND_TEST_WRONG_PIN="sha256//$(openssl x509 -in "$dir/other.pem" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl base64 -A)"
  export ERRAND_TEST_PIN ERRAND_TEST_WRONG_PIN
  # An EC (P-256) server certificate from the same CA, for the pin tests' second kind of key.
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" -keyout "$dir/server-ec.key" \
    -out "$dir/server-ec.csr" >/dev/null 2>&1
  openssl x509 -req -in "$dir/server-ec.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$dir/ext.cnf" -out "$dir/server-ec.pem" >/dev/null 2>&1
}

servers_start_httpbin() {
  local port; port=$(servers_free_port)
  "$SERVERS_PY" -m httpbin.core --host 127.0.0.1 --port "$port" >"$SERVERS_STATE/httpbin.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$port" httpbin
  export ERRAND_HTTPBIN_URL=http://127.0.0.1:$port
}

servers_start_nginx() {
  local https_port http_port www=$SERVERS_STATE/www upload_port=9
  # Started first, the upload server is reachable behind nginx's /upload-proxy/ (for bodies over HTTP/2).
  [[ -n ${ERRAND_UPLOAD_URL:-} ]] && upload_port=${ERRAND_UPLOAD_URL##*:}
  https_port=$(servers_free_port); http_port=$(servers_free_port)
  mkdir -p "$www" "$SERVERS_STATE/nginx-temp"
  "$SERVERS_PY" "$root/Tests/Servers/make_static.py" "$www"
  chmod -R a+rX "$SERVERS_STATE"
  sed -e "s#@HTTPS_PORT@#$https_port#g" -e "s#@HTTP_PORT@#$http_port#g" -e "s#@STATE@#$SERVERS_STATE#g" \
    -e "s#@WWW@#$www#g" -e "s#@USER@#$(id -un)#g" -e "s#@UPLOAD_PORT@#${upload_port}#g" \
    "$root/Tests/Servers/nginx.conf.template" >"$SERVERS_STATE/nginx.conf"
  local nginx_bin; nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
  "$nginx_bin" -p "$SERVERS_STATE" -c "$SERVERS_STATE/nginx.conf" -g 'daemon off;' >"$SERVERS_STATE/nginx.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$https_port" nginx
  export ERRAND_NGINX_HTTPS_URL=https://localhost:$https_port
  export ERRAND_NGINX_HTTP_URL=http://127.0.0.1:$http_port
}

# A project server: Tests/Servers/NAME.py, started with --port and its own log.
servers_start_python() {
  local name=$1 var=$2 port
  [[ -f $root/Tests/Servers/$name.py ]] || return 0
  port=$(servers_free_port)
  "$SERVERS_PY" "$root/Tests/Servers/$name.py" --port "$port" --log "$SERVERS_STATE/$name-requests.jsonl" \
    >"$SERVERS_STATE/$name.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$port" "$name"
  export "$var=http://127.0.0.1:$port"
}

# The websockets server again, over TLS with the throwaway CA's certificate: wss.
servers_start_wss() {
  local port; port=$(servers_free_port)
  "$SERVERS_PY" "$root/Tests/Servers/ws_server.py" --port "$port" --tls-cert "$SERVERS_STATE/tls/server.pem" \
    --tls-key "$SERVERS_STATE/tls/server.key" >"$SERVERS_STATE/wss_server.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$port" wss_server
  export ERRAND_WSS_URL=https://localhost:$port
}

servers_start() {
  SERVERS_STATE=$(mktemp -d "${TMPDIR:-/tmp}/errand-servers.XXXXXX")
  export SERVERS_STATE
  trap servers_stop EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  servers_make_certificates
  servers_start_httpbin
  servers_start_python upload_server ERRAND_UPLOAD_URL
  servers_start_nginx
  servers_start_python fault_server ERRAND_FAULT_URL
  servers_start_python replica ERRAND_REPLICA_URL
  servers_start_python sse_server ERRAND_SSE_URL
  servers_start_python cookie_server ERRAND_COOKIE_URL
  connectivity_start
  servers_start_python ws_server ERRAND_WS_URL
  servers_start_python ws_hostile ERRAND_WS_HOSTILE_URL
  servers_start_wss
  servers_log "httpbin ${ERRAND_HTTPBIN_URL}, nginx ${ERRAND_NGINX_HTTPS_URL} ${ERRAND_NGINX_HTTP_URL}, fault ${ERRAND_FAULT_URL:-none}, replica ${ERRAND_REPLICA_URL:-none}, upload ${ERRAND_UPLOAD_URL:-none}, sse ${ERRAND_SSE_URL:-none}"
  servers_log "websocket ${ERRAND_WS_URL:-none}, hostile websocket ${ERRAND_WS_HOSTILE_URL:-none}, wss ${ERRAND_WSS_URL:-none}"
}

# servers_check_no_curl DIR: the tools and test bundle built in DIR reference no curl_* symbol of their own (the
# build without libcurl must not reach libcurl behind Foundation's back; FoundationNetworking's own use of it is its own).
servers_check_no_curl() {
  local dir=$1 binary found=0 checked=0
  command -v nm >/dev/null 2>&1 || { echo "no-curl check: nm is missing (binutils)" >&2; return 1; }
  for binary in "$dir"/mealdb "$dir"/met "$dir"/*.xctest; do
    [[ -f $binary ]] || continue
    checked=$((checked + 1))
    if nm "$binary" 2>/dev/null | grep -E -q ' [UTtDdBb] curl_'; then
      echo "no-curl check: $binary references curl_* symbols" >&2
      found=1
    fi
  done
  ((checked > 0)) || { echo "no-curl check: no binaries in $dir" >&2; return 1; }
  ((found == 0)) && echo "no-curl check: $checked binaries in $dir reference no curl_* symbol" >&2
  return "$found"
}

servers_print_env() {
  local var
  for var in ERRAND_HTTPBIN_URL ERRAND_NGINX_HTTPS_URL ERRAND_NGINX_HTTP_URL ERRAND_FAULT_URL ERRAND_REPLICA_URL ERRAND_UPLOAD_URL ERRAND_SSE_URL ERRAND_COOKIE_URL ERRAND_WS_URL ERRAND_WS_HOSTILE_URL \
    ERRAND_WSS_URL ERRAND_TEST_CA ERRAND_TEST_PIN ERRAND_TEST_WRONG_PIN SERVERS_STATE \
    ERRAND_PROXY_URL ERRAND_OPEN_PROXY_URL ERRAND_PROXY_USER ERRAND_PROXY_PASSWORD ERRAND_SOCKS_URL ERRAND_NGINX_MTLS_URL ERRAND_NGINX_SOCKET \
    ERRAND_TEST_CLIENT_TLS ERRAND_HTTPS_PROXY_URL; do
    # An `if`, not `[[ … ]] && printf`: a last variable left unset would make that the function's status, and
    # under `set -e` a caller such as `scripts/bench --serve` would exit (stopping its servers) right after printing.
    if [[ -n ${!var:-} ]]; then printf 'export %s=%q\n' "$var" "${!var}"; fi
  done
}

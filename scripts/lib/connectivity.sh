# Test servers for the connectivity features, started by servers_start after the main ones: tinyproxy (a real HTTP
# proxy, once with Basic authentication and once open), a SOCKS5 server of the project's own, and a second nginx that wants a client
# certificate (mutual TLS) and listens on a Unix-domain socket. Needs servers.sh's helpers and state directory.
# shellcheck shell=bash

# The Debian packages these servers need, one a line, when missing.
connectivity_missing_packages() {
  command -v tinyproxy >/dev/null 2>&1 || [[ -x /usr/bin/tinyproxy ]] || [[ -x /usr/sbin/tinyproxy ]] || echo tinyproxy
}

# Client certificates signed by the test CA: client.pem/client.key in the clear, and the same certificate with its key
# encrypted under the passphrase in client.pass. other.pem/other.key (self-signed) is the certificate nginx refuses.
connectivity_make_client_certificates() {
  local dir=$SERVERS_STATE/tls
  openssl req -newkey rsa:2048 -nodes -subj "/CN=Errand Test Client" -keyout "$dir/client.key" \
    -out "$dir/client.csr" >/dev/null 2>&1
  printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n' >"$dir/client-ext.cnf"
  openssl x509 -req -in "$dir/client.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$dir/client-ext.cnf" -out "$dir/client.pem" >/dev/null 2>&1
  openssl rand -hex 16 >"$dir/client.pass"
  openssl pkey -in "$dir/client.key" -aes256 -passout "file:$dir/client.pass" -out "$dir/client-encrypted.key"
  # The same certificate and key as one PKCS#12 archive, under the same passphrase.
  openssl pkcs12 -export -in "$dir/client.pem" -inkey "$dir/client.key" -passout "file:$dir/client.pass" \
    -out "$dir/client.p12"
  export ERRAND_TEST_CLIENT_TLS=$dir
}

# An HTTPS proxy: TLS (the harness's server certificate) in front of the open tinyproxy, by Tests/Servers/tls_relay.py.
connectivity_start_tls_proxy() {
  local port; port=$(servers_free_port)
  "$SERVERS_PY" "$root/Tests/Servers/tls_relay.py" --port "$port" --target "${ERRAND_OPEN_PROXY_URL#http://}" \
    --certificate "$SERVERS_STATE/tls/server.pem" --key "$SERVERS_STATE/tls/server.key" \
    --log "$SERVERS_STATE/tls_relay-connections.jsonl" >"$SERVERS_STATE/tls_relay.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$port" tls_relay
  export ERRAND_HTTPS_PROXY_URL=https://localhost:$port
}

connectivity_start_nginx() {
  local port socket=$SERVERS_STATE/nginx.sock
  port=$(servers_free_port)
  sed -e "s#@MTLS_PORT@#$port#g" -e "s#@SOCKET@#$socket#g" -e "s#@STATE@#$SERVERS_STATE#g" \
    -e "s#@WWW@#$SERVERS_STATE/www#g" -e "s#@USER@#$(id -un)#g" \
    "$root/Tests/Servers/nginx-connectivity.conf.template" >"$SERVERS_STATE/nginx-connectivity.conf"
  local nginx_bin; nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
  "$nginx_bin" -p "$SERVERS_STATE" -c "$SERVERS_STATE/nginx-connectivity.conf" -g 'daemon off;' \
    >"$SERVERS_STATE/nginx-connectivity.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$port" nginx-connectivity
  export ERRAND_NGINX_MTLS_URL=https://localhost:$port ERRAND_NGINX_SOCKET=$socket
}

# connectivity_start_tinyproxy NAME VARIABLE [open]: tinyproxy on a free port, its URL in VARIABLE; with `open`, it
# asks for no credentials (for URLSession on Linux, which cannot send any).
connectivity_start_tinyproxy() {
  local name=$1 variable=$2 open=${3:-} port bin conf=$SERVERS_STATE/$1.conf
  bin=$(command -v tinyproxy || { [[ -x /usr/bin/tinyproxy ]] && echo /usr/bin/tinyproxy; } || echo /usr/sbin/tinyproxy)
  port=$(servers_free_port)
  sed -e "s#@PORT@#$port#g" -e "s#@STATE@#$SERVERS_STATE#g" -e "s#@NAME@#$name#g" \
    -e "s#@PROXY_USER@#$ERRAND_PROXY_USER#g" -e "s#@PROXY_PASSWORD@#$ERRAND_PROXY_PASSWORD#g" \
    "$root/Tests/Servers/tinyproxy.conf.template" >"$conf"
  [[ $open == open ]] && sed -i -e '/^BasicAuth /d' "$conf"
  # As root, tinyproxy drops to the user the file names; it must still write its log in the state directory.
  if [[ $(id -u) == 0 ]]; then
    printf 'User nobody\nGroup nogroup\n' >>"$conf"
    touch "$SERVERS_STATE/$name.log" && chown nobody "$SERVERS_STATE/$name.log"
  fi
  "$bin" -d -c "$conf" >"$SERVERS_STATE/$name-console.log" 2>&1 &
  SERVER_PIDS+=($!)
  servers_wait_port "$port" "$name"
  export "$variable=http://127.0.0.1:$port"
}

connectivity_start() {
  connectivity_make_client_certificates
  connectivity_start_nginx
  ERRAND_PROXY_USER=errand
  ERRAND_PROXY_PASSWORD=$(openssl rand -hex 12)
  export ERRAND_PROXY_USER ERRAND_PROXY_PASSWORD
  connectivity_start_tinyproxy tinyproxy ERRAND_PROXY_URL
  connectivity_start_tinyproxy tinyproxy-open ERRAND_OPEN_PROXY_URL open
  servers_start_python socks5_server ERRAND_SOCKS_URL
  connectivity_start_tls_proxy
  servers_log "proxy ${ERRAND_PROXY_URL} (open ${ERRAND_OPEN_PROXY_URL}, over TLS ${ERRAND_HTTPS_PROXY_URL}), socks ${ERRAND_SOCKS_URL:-none}, mTLS ${ERRAND_NGINX_MTLS_URL}, socket ${ERRAND_NGINX_SOCKET}"
}

#!/usr/bin/env bash
# Installs the Debian packages that some tests drive as real components, when they are missing:
# chromium (the CORS test runs a real browser against the server; the docs site's test browses the
# built site), redis-server and haproxy (the @mcp-fw/redis cluster tests run several nodes on one
# Redis behind a round-robin balancer). CI runs as root on Debian; elsewhere, without root or
# apt-get, it says what is missing and those tests skip.
set -u
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "mcp-fw: ${missing[*]} not installed and no root apt-get here; the tests that need it will be skipped (install: apt-get install -y ${missing[*]})" >&2
  exit 0
fi
echo "mcp-fw: installing Debian packages for the real-component tests (once): ${missing[*]} (apt-get install -y; chromium is ~100 MB download, redis-server and haproxy a few MB)" >&2
apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null

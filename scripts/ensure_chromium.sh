#!/usr/bin/env bash
# Installs Debian's chromium for the browser test when it is missing and we are root.
# Never downloads a browser build of its own (no `playwright install`).
set -u
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian chromium for the browser test..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
    && exit 0
  echo "could not install chromium; the browser test will report it" >&2
  exit 0
fi
echo "chromium is not installed (needs root: apt-get install chromium); the browser test will skip" >&2
exit 0

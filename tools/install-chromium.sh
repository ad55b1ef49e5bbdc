#!/bin/sh
# The browser tests drive Debian's Chromium through Playwright's Python package (never
# `playwright install`). Install it when it is missing; do nothing when it is there.
set -e
CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
echo "installing chromium for the browser tests (apt-get, a few minutes)..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
[ -x "$CHROMIUM" ]

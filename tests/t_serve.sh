#!/usr/bin/env bash
# tests/t_serve.sh: tbserve, its API and its page: tests/t_serve.py, then
# the browser test tests/t_web.py, each against servers it starts on free
# ports of 127.0.0.1 and stops.  Runs Debian's /usr/bin/python3 (with
# python3-selenium, chromium and chromium-driver for the page: see
# scripts/install-deps).
cd "$(dirname "$0")/.." || exit 1
status=0
/usr/bin/python3 tests/t_serve.py || status=1
/usr/bin/python3 tests/t_web.py || status=1
exit $status

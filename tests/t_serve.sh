#!/usr/bin/env bash
# tests/t_serve.sh: tbserve, its API and its page.  tests/t_serve.py runs
# twice, against bin/tbserve and against build/san/tbserve (AddressSanitizer
# and UBSan: a leak or an error makes the server's exit status non-zero,
# which the test checks), then the browser test tests/t_web.py.  Each starts
# its servers on free ports of 127.0.0.1 and stops them.  Runs Debian's
# /usr/bin/python3 (with python3-selenium, chromium and chromium-driver for
# the page: see scripts/install-deps).
cd "$(dirname "$0")/.." || exit 1
status=0
/usr/bin/python3 tests/t_serve.py || status=1
echo "# again under ASan and UBSan: build/san/tbserve"
TBSERVE=build/san/tbserve /usr/bin/python3 tests/t_serve.py || status=1
/usr/bin/python3 tests/t_web.py || status=1
exit $status

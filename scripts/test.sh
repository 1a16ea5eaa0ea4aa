#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine and run the whole suite.
# (README command 2; .ci/run runs exactly this.)
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 ANONYMIZED_TELEMETRY=False GRADIO_ANALYTICS_ENABLED=False
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
# headless Chromium for the browser test (Debian packages; Playwright drives /usr/bin/chromium)
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium chromium-driver >/dev/null; fi
fi
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"

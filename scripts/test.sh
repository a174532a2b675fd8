#!/usr/bin/env bash
# Installs conflictkit with every backend plugin and test dependency into .venv, checks that the wheels
# install and run in a fresh virtualenv (scripts/wheel_smoke.sh), then runs the tests.
# Used by the README's test command and by CI (.ci/run). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing chromium (apt)..." >&2
  { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || echo "warning: could not install chromium; the browser tests will be skipped" >&2
fi

# LibreOffice (Writer, no GUI) for the check that every report.docx the tests write opens and converts.
if ! command -v soffice >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing libreoffice-writer-nogui (apt)..." >&2
  { apt-get update -qq >/dev/null \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-writer-nogui >/dev/null; } \
    || echo "warning: could not install LibreOffice; the report.docx conversion checks will be skipped" >&2
fi

[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
PIP="$VENV/bin/python -m pip"
$PIP install -q --upgrade pip
# The CPU build of torch first: an unpinned torch would pull a multi-GB CUDA build.
$PIP install -q "torch==2.13.0"
$PIP install -q -e ".[test,web,bench]" \
  -e "backends/conflictkit-onnx[test]" \
  -e backends/conflictkit-sentence-transformers \
  -e "backends/conflictkit-bm25[test]" \
  -e backends/conflictkit-nli \
  -e backends/conflictkit-isaacus \
  -e backends/conflictkit-ray \
  -e backends/conflictkit-openai \
  -e backends/conflictkit-docx \
  -e backends/conflictkit-pdf \
  "reportlab>=4"

# Wheels of the core and every plugin in a fresh torch-free virtualenv, running the README's main command.
PYTHON="$VENV/bin/python" bash scripts/wheel_smoke.sh

exec "$VENV/bin/python" -m pytest "$@"

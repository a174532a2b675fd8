#!/usr/bin/env bash
# Installs conflictkit the way a user does, from wheels: builds a wheel of the core and of every
# backend package, installs them into a fresh virtualenv with no torch, and runs the README's main
# command from another directory. scripts/test.sh calls it, so CI fails when packaging breaks
# (presets or templates left out of a wheel, a plugin that needs torch just to register).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
trap 'echo "wheel smoke test: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

echo "wheel smoke test: building wheels..." >&2
"$PYTHON" -m pip wheel -q --no-deps --wheel-dir "$WORK/wheels" "$ROOT" "$ROOT"/backends/*/
"$PYTHON" -m venv "$WORK/venv"
PIP="$WORK/venv/bin/python -m pip"
# The offline default (core + conflictkit-onnx) and the light plugins with their dependencies...
$PIP install -q "$WORK"/wheels/conflictkit-[0-9]*.whl "$WORK"/wheels/conflictkit_onnx-*.whl \
  "$WORK"/wheels/conflictkit_bm25-*.whl "$WORK"/wheels/conflictkit_isaacus-*.whl "$WORK"/wheels/conflictkit_openai-*.whl \
  "$WORK"/wheels/conflictkit_docx-*.whl "$WORK"/wheels/conflictkit_pdf-*.whl
# ...and the torch and Ray plugins without theirs: they must still register (their heavy imports are lazy).
$PIP install -q --no-deps "$WORK"/wheels/conflictkit_sentence_transformers-*.whl "$WORK"/wheels/conflictkit_nli-*.whl \
  "$WORK"/wheels/conflictkit_ray-*.whl

cd "$WORK"  # nothing may be found relative to the checkout
CK="$WORK/venv/bin/conflictkit"
if "$WORK/venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "wheel smoke test: torch got installed with the offline default" >&2; exit 1
fi
"$CK" config show --config fast >"$WORK/config.txt"
grep -q "use: hashing" "$WORK/config.txt"
# (never `cmd | grep -q`: grep stops at the first match and, under pipefail, cmd's SIGPIPE fails the script)
"$CK" backends >"$WORK/backends.txt" 2>"$WORK/backends.err"
grep -q "conflictkit-onnx" "$WORK/backends.txt"
if [ -s "$WORK/backends.err" ]; then cat "$WORK/backends.err" >&2; exit 1; fi
for plugin in conflictkit-sentence-transformers conflictkit-nli conflictkit-bm25 conflictkit-isaacus conflictkit-openai \
              conflictkit-docx conflictkit-pdf; do
  grep -q "$plugin" "$WORK/backends.txt" || { echo "wheel smoke test: $plugin did not register" >&2; exit 1; }
done
# The README's main command, with the installed default preset.
"$CK" compare "$ROOT/samples/reference-saas-agreement.md" "$ROOT/samples/input-vendor-draft.md" --out "$WORK/out" \
  >"$WORK/compare.txt"
tail -n 1 "$WORK/compare.txt" | grep -q "deviations"
"$CK" compare --config hybrid "$ROOT/samples/reference-saas-agreement.md" "$ROOT/samples/input-vendor-draft.md" >/dev/null
test -s "$WORK/out/report.json"
"$CK" batch --reference "$ROOT/samples/reference-saas-agreement.md" "$ROOT/samples/input-vendor-draft.md" \
  --config fast --workers 1 --out "$WORK/batch" 2>/dev/null
test -s "$WORK/batch/summary.html"
# the Ray plugin registered: without ray itself, --engine ray says what to install (exit 2)
if "$CK" batch --engine ray --reference "$ROOT/samples/reference-saas-agreement.md" "$ROOT/samples/input-vendor-draft.md" \
    --out "$WORK/batch-ray" >"$WORK/ray.txt" 2>&1; then
  echo "wheel smoke test: --engine ray ran without ray installed" >&2; exit 1
fi
grep -q "needs ray" "$WORK/ray.txt"
echo "wheel smoke test: ok" >&2

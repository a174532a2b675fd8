#!/usr/bin/env bash
# Reproduce the committed quality benchmarks (benchmarks/results/bench/, contractnli/, isaacus-smoke/).
# Thresholds are tuned on the tune split and on ContractNLI dev only; results are reported on the
# report split, the document pairs and ContractNLI test. A fresh cache, so every judgement and its
# timing is measured in this run (document indexes are shared between configs with one embedder).
# ContractNLI is read from ../shared/corpus (or $CONFLICTKIT_CORPUS); its steps are skipped when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
export CONFLICTKIT_CACHE_DIR="${CONFLICTKIT_CACHE_DIR:-$(mktemp -d)}"
CK="${CK:-conflictkit}"
PY="${PY:-python}"
DATA=benchmarks/data
CORPUS="${CONFLICTKIT_CORPUS:-../shared/corpus}"

# 1. calibrate the offline default on the tune split (a held-apart part shows before/after)
$CK calibrate --config offline --dataset $DATA/clause-pairs/tune.jsonl --out benchmarks/configs/offline.calibrated.yaml

# 2. every config on the report split and the document pairs
$CK bench --config offline --config benchmarks/configs/offline.calibrated.yaml --config fast \
  --config benchmarks/configs/cosine-only.yaml --config benchmarks/configs/line-diff.yaml \
  --config benchmarks/configs/hybrid.yaml --config benchmarks/configs/nli-only.yaml \
  --dataset $DATA/clause-pairs/report.jsonl --dataset $DATA/documents/samples.yaml \
  --dataset $DATA/documents/edits/edits.yaml --dataset $DATA/documents/corpus.yaml \
  --out benchmarks/results/bench

# 2b. real revisions labelled hunk by hunk (the development set beside the corpus), scored against a word diff
REVISIONS="${REVISIONS:-../shared/revisions}"
if [ -d "$REVISIONS/labels" ]; then
  $CK bench --config offline --config fast --dataset "$REVISIONS" --out benchmarks/results/revisions --no-plots
else
  echo "revision set not found at $REVISIONS: skipped" >&2
fi

# 3. ContractNLI: tune on dev, report on test
if [ -f "$CORPUS/contractnli/dev.json" ]; then
  $CK calibrate --config offline --dataset corpus:contractnli/dev.json --out benchmarks/configs/offline.contractnli.yaml
  $CK bench --config offline --config benchmarks/configs/offline.contractnli.yaml \
    --config benchmarks/configs/cosine-only.yaml --config benchmarks/configs/line-diff.yaml \
    --dataset corpus:contractnli/test.json --out benchmarks/results/contractnli
else
  echo "ContractNLI not found under $CORPUS: skipped" >&2
fi

# 4. Isaacus against its fake API: a smoke test, never a quality figure
if $PY -c "import conflictkit_isaacus" 2>/dev/null; then
  $PY benchmarks/isaacus_smoke.py --config benchmarks/configs/isaacus-smoke.yaml \
    --dataset $DATA/clause-pairs/report.jsonl --dataset $DATA/documents/corpus.yaml --out benchmarks/results/isaacus-smoke
fi

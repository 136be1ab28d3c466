#!/usr/bin/env bash
# Install the real coding agents the gateway's slow tests drive (Claude Code, Codex) and claude-code-router (which
# bench/gateway_bench.py --router measures beside the gateway; 3.1.1 depends on a package missing from the
# registry, 2.0.0 installs) into a folder outside
# the repository: $ASI_CLIENTS_DIR, default ~/.cache/asi-agent-clients. Prints the folder's bin directory.
set -euo pipefail
dir="${ASI_CLIENTS_DIR:-$HOME/.cache/asi-agent-clients}"
mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/claude" ] || [ ! -x "$dir/node_modules/.bin/codex" ] || [ ! -x "$dir/node_modules/.bin/ccr" ]; then
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
    @anthropic-ai/claude-code@2 @openai/codex@0 @musistudio/claude-code-router@2.0.0 >&2
fi
echo "$dir/node_modules/.bin"

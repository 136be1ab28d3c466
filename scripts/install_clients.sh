#!/usr/bin/env bash
# Install the real coding agents the gateway's slow tests drive (Claude Code, Codex) into a folder outside
# the repository: $ASI_CLIENTS_DIR, default ~/.cache/asi-agent-clients. Prints the folder's bin directory.
set -euo pipefail
dir="${ASI_CLIENTS_DIR:-$HOME/.cache/asi-agent-clients}"
mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/claude" ] || [ ! -x "$dir/node_modules/.bin/codex" ]; then
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
    @anthropic-ai/claude-code@2 @openai/codex@0 >&2
fi
echo "$dir/node_modules/.bin"

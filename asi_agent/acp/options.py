"""The `acp` command line (argparse only, so that `asi-agent --help` stays instant)."""

from __future__ import annotations

from typing import Any

from asi_agent.argtypes import positive, seconds

__all__ = ["add_acp_parser"]

MODES = ("ask", "auto-edit", "plan", "yolo")


def add_acp_parser(sub: Any) -> None:
    """The `acp` subcommand (called by the CLI parser)."""
    acp = sub.add_parser(
        "acp",
        help="Agent Client Protocol agent over stdio, for editors (Zed, JetBrains, Neovim)",
        description="Speak the Agent Client Protocol on standard input and output: an editor starts this "
        "command and talks to it. The project folder is the one the editor names for each session; the "
        "options below and the user and project configuration choose the model and the policy.",
    )
    add = acp.add_argument
    add(
        "--provider",
        choices=["openai", "ollama", "local", "scripted", "anthropic"],
        help="model provider (default: detect)",
    )
    add("--model", help="model name (scripted: script file; local: GGUF file)")
    add("--base-url", help="model server address")
    add("--tool-mode", choices=["auto", "native", "text"], help="native tool calls, text emulation, or auto")
    add("--call-format", metavar="FORMAT", help="text mode's call dialect (see `asi-agent run --help`)")
    add("--approval", choices=list(MODES), help="the sessions' first permission mode (default: ask)")
    add("--yes", action="store_true", help="never ask (same as --approval yolo)")
    add("--policy", help="policy preset name or TOML file")
    add("--max-turns", type=positive, metavar="N", help="upper bound on model requests per prompt")
    add("--timeout", type=seconds, metavar="SECONDS", help="end a prompt's run after this wall-clock time")
    add("--no-sandbox", action="store_true", help="run commands without the OS sandbox, as you (explicit)")
    add("--allow-network", action="store_true", help="let sandboxed commands use the network")
    add("--trust", action="store_true", help="trust the sessions' project folders (not stored)")

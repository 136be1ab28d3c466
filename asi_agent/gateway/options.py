"""The `serve` subcommand's options (argparse only: `asi-agent --help` imports this)."""

from __future__ import annotations

import argparse
from typing import Any

from asi_agent.argtypes import positive

__all__ = ["add_serve_parser"]

PROVIDERS = ("openai", "ollama", "local", "scripted", "anthropic")
CALL_FORMATS = (
    "auto", "asi", "hermes", "qwen-xml", "glm", "mistral", "llama", "pythonic", "function-tag", "tool-calls",
    "deepseek", "kimi", "harmony", "functiongemma", "functionary", "command-r", "json",
)  # fmt: skip


def _port(value: str) -> int:
    number = int(value)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError("a port is 0-65535 (0: any free port)")
    return number


def add_serve_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `serve`."""
    serve = sub.add_parser(
        "serve",
        help="OpenAI/Anthropic-compatible gateway: tool calling for any client on any model",
        description="Serve /v1/chat/completions, /v1/messages and /v1/responses in front of the configured "
        "model; a model without native tool calling gets it emulated (prompt contract, parser, retries, "
        "re-encoding, streaming). Loopback only unless --host is given; then a token is required.",
    )
    add = serve.add_argument
    add("--host", help="address to listen on (default: 127.0.0.1; any other requires a token)")
    add("--port", type=_port, default=8787, help="port (default: 8787; 0: any free port)")
    add(
        "--token",
        help="bearer token clients must send (default with --host: ASI_GATEWAY_TOKEN, else generated)",
    )
    add(
        "--emulate",
        choices=["auto", "always", "never"],
        default="auto",
        help="emulate tool calling: auto (when the upstream has no native tools), always, never",
    )
    add("--provider", choices=list(PROVIDERS), help="model provider (default: detect)")
    add("--model", help="model name (scripted: script file; local: GGUF file)")
    add("--base-url", help="model server address")
    add("--call-format", choices=list(CALL_FORMATS), metavar="FORMAT", help="text mode's call dialect")
    add(
        "--chat-template",
        metavar="FILE",
        help="the model's Jinja chat template (calls are read as it writes them)",
    )
    add("--max-body", type=positive, default=8 * 1024 * 1024, metavar="BYTES", help="largest request body")
    add("--max-concurrent", type=positive, default=64, metavar="N", help="requests answered at once")

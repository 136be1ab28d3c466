"""Running `asi-agent serve`: the gateway in front of the configured model, until interrupted.

Loopback only by default. With `--host`, every API request must carry a token: `--token`, else
`ASI_GATEWAY_TOKEN`, else one generated now and printed once on standard error.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import socket
import sys
from pathlib import Path

from asi_agent.assembly import read_chat_template
from asi_agent.config import load_config
from asi_agent.exceptions import UserError
from asi_agent.providers import create_backend, provider_of

__all__ = ["serve_command"]

LOOPBACK = "127.0.0.1"


def _stderr_line(line: str) -> None:
    """A request's log line on stderr, as the logger's `%(message)s` handler wrote it, without building a
    log record for every request (that cost more than the rest of the line)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _token(args: argparse.Namespace) -> str | None:
    """The token API requests must carry: none on loopback unless one is given."""
    given = args.token or os.environ.get("ASI_GATEWAY_TOKEN")
    if given or args.host is None:
        return given or None
    token = secrets.token_urlsafe(24)
    print(
        f"asi-agent serve: token (send as 'Authorization: Bearer …' or 'x-api-key'): {token}", file=sys.stderr
    )
    return token


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and without it
    # small answers wait for the client's delayed ACK (~40 ms each).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(1024)
    return sock


def _require_server() -> None:
    """UserError without the gateway extra's HTTP parser (its server cannot run without it)."""
    try:
        import httptools  # noqa: F401, PLC0415
    except ModuleNotFoundError:
        raise UserError("asi-agent serve needs the gateway extra: pip install 'asi-agent[gateway]'") from None


def serve_command(args: argparse.Namespace) -> int:
    """Serve until interrupted; UserError (exit 1) for a bad option, configuration or address."""
    _require_server()
    from asi_agent.gateway.app import GatewayConfig, build_app  # noqa: PLC0415 - only here
    from asi_agent.gateway.emulate import Upstream  # noqa: PLC0415
    from asi_agent.gateway.server import run  # noqa: PLC0415

    root = Path.cwd()
    flags = {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "call_format": args.call_format,
        "chat_template": str(Path(args.chat_template).resolve()) if args.chat_template else None,
    }
    config = load_config(root, flags, trusted=None)
    backend = create_backend(config)
    # A second client of the same server for unstreamed requests (not for an in-process model or a script).
    remote = provider_of(backend) in ("openai", "ollama", "anthropic")
    unstreamed = (
        create_backend(config.model_copy(update={"stream": False})) if config.stream and remote else None
    )
    upstream = Upstream(
        backend,
        unstreamed=unstreamed,
        emulate=args.emulate,
        call_format=config.call_format,
        chat_template=read_chat_template(config.chat_template, root),
    )
    token = _token(args)
    limits = GatewayConfig(token=token, max_body=args.max_body, max_concurrent=args.max_concurrent)
    app = build_app(upstream, limits, log_line=_stderr_line)
    host = args.host or LOOPBACK
    sock = _listen(host, args.port)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    logging.getLogger("asi_agent.gateway").setLevel(logging.INFO)
    shown = f"[{host}]" if ":" in host else host
    print(
        f"asi-agent serve: listening on http://{shown}:{sock.getsockname()[1]} "
        f"(model {backend.model_name}, emulation {args.emulate})",
        file=sys.stderr,
        flush=True,
    )
    run(app, sock, max_body=args.max_body)
    return 0

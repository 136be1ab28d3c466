"""The process a manifest's `python` tool runs in: one call, inside the run's sandbox, then it exits.

The runtime (`asi_agent.plugins.isolated`) starts `python -I`, sends one request and reads the answer,
one JSON object per line:

    runtime → child   {"file", "entry", "tool", "root", "arguments"}
    child → runtime   {"ask": prompt, "system": text|null}      (ctx.ask_model; any number of times)
    runtime → child   {"answer": text} | {"error": text}
    child → runtime   {"result": text} | {"error": text, "kind": "arguments"|"tool"}

The protocol has the child's original stdout to itself: whatever the plugin prints goes to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import IO, Any

__all__ = ["main"]


class _Channel:
    """The runtime at the other end of the pipes: a model to ask, and where the result goes."""

    def __init__(self, out: IO[str]) -> None:
        self._out = out
        self._lock = asyncio.Lock()

    def send(self, message: dict[str, Any]) -> None:
        self._out.write(json.dumps(message, ensure_ascii=False) + "\n")
        self._out.flush()

    async def ask(self, prompt: str, *, system: str | None = None) -> str:
        """Ask the session's model through the runtime (one question at a time)."""
        from asi_agent.exceptions import ToolError  # noqa: PLC0415 - the child's imports stay few

        async with self._lock:
            self.send({"ask": prompt, "system": system})
            line = await asyncio.to_thread(sys.stdin.readline)
        reply = json.loads(line) if line.strip() else {"error": "the runtime closed the channel"}
        if "answer" in reply:
            return str(reply["answer"])
        raise ToolError(str(reply.get("error", "no answer from the model")))


def _import(tool: str, path: Path) -> ModuleType:
    """Import the plugin file under a private name, with its folder on sys.path (sibling imports)."""
    spec = importlib.util.spec_from_file_location(f"_asi_plugin_{tool}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path.name}")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    spec.loader.exec_module(module)
    return module


async def _call(request: dict[str, Any], channel: _Channel) -> dict[str, str]:
    """Run the tool once; the answer to send back."""
    from asi_agent.exceptions import ModelFixableError, ToolArgumentsError  # noqa: PLC0415
    from asi_agent.sdk import PluginContext, SdkTool  # noqa: PLC0415

    tool, path, entry = str(request["tool"]), Path(request["file"]), str(request["entry"])
    try:
        module = _import(tool, path)
    except Exception as exc:  # the plugin's own bug: reported to the model
        from asi_agent.plugins.runners import install_hint  # noqa: PLC0415 - only for this message

        why = f"{type(exc).__name__}: {exc}{install_hint(str(exc))}"
        return {"error": f"{tool}: importing {path.name} failed: {why}", "kind": "tool"}
    target = getattr(module, entry.split(":", 1)[1], None)
    if not isinstance(target, SdkTool):
        return {
            "error": f"{tool}: {entry} is not a tool; decorate the function with @tool from asi_agent.sdk",
            "kind": "tool",
        }
    logger = logging.getLogger(f"asi_agent.plugins.{tool}")
    ctx = PluginContext(root=Path(request["root"]), logger=logger, model=channel)
    try:
        return {"result": await target.invoke(request["arguments"], ctx)}
    except ToolArgumentsError as exc:
        return {"error": str(exc), "kind": "arguments"}
    except ModelFixableError as exc:
        return {"error": str(exc), "kind": "tool"}
    except Exception as exc:  # the plugin's own bug
        return {"error": f"{tool} failed inside the plugin: {type(exc).__name__}: {exc}", "kind": "tool"}


def main() -> int:
    """Serve one call on stdin/stdout; 0 once the answer is written."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the plugin's prints reach stderr, never the protocol
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    channel = _Channel(out)
    request = json.loads(sys.stdin.readline())
    answer = asyncio.run(_call(request, channel))
    channel.send(answer)
    with contextlib.suppress(OSError):
        out.close()
    return 0

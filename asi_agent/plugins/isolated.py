"""A manifest's `python` tool, run in a child process inside the run's sandbox (`asi_agent.sdk.child`).

The module a manifest names is the project's (or the user folder's) code: it never runs inside the
asi-agent process. Each call starts `python -I` (nothing from the current folder or `PYTHON*` variables
on sys.path) in the sandbox, with the network and the extra writable folders the manifest entry
declares, sends the arguments and reads the result; `ctx.ask_model` questions are answered here with
the session's model. Installed plugin packages (pip entry points) still run in-process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asi_agent.exceptions import ToolArgumentsError, ToolError
from asi_agent.tools.base import ToolArgs, ToolContext, ToolFunction

if TYPE_CHECKING:
    from asi_agent.plugins.manifest import PythonRun

__all__ = ["python_child_runner"]

_BOOT = "import sys; sys.path.append(sys.argv[1]); from asi_agent.sdk.child import main; sys.exit(main())"
"""The child's start: the package's folder *last* on sys.path, after the standard library."""
_LINE_LIMIT = 16 * 1024 * 1024
_STDERR_KEPT = 64 * 1024
_KILL_GRACE = 2.0


def python_child_runner(name: str, run: PythonRun, plugin_dir: Path) -> ToolFunction:
    """Call an SDK tool of a manifest in a sandboxed child process, its module looked up on each call."""
    from asi_agent.plugins.runners import MAX_ERROR_CHARS, MAX_OUTPUT_CHARS, cap, find_module  # noqa: PLC0415 - cycle

    module = run.entry.split(":", 1)[0]

    async def call(args: ToolArgs, ctx: ToolContext) -> str:
        path = find_module(module, plugin_dir)
        if path is None:
            raise ToolError(
                f"{name}: plugin module {module!r} not found in {plugin_dir / 'plugins'} or {plugin_dir}"
            )
        request = {
            "file": str(path),
            "entry": run.entry,
            "tool": name,
            "root": str(ctx.root),
            "arguments": args.model_dump(mode="json"),
        }
        proc = await _start(name, run, plugin_dir, ctx)
        errors = asyncio.ensure_future(_drain(proc.stderr))
        try:
            reply = await asyncio.wait_for(_converse(proc, request, ctx), run.timeout)
        except TimeoutError:
            await _kill_group(proc)
            await errors
            raise ToolError(f"{name}: no result after {run.timeout:g} s; the plugin was stopped") from None
        except asyncio.CancelledError:
            await _kill_group(proc)
            errors.cancel()
            raise
        await _finish(proc)
        stderr = await errors
        if reply is None:
            detail = cap(stderr.strip(), MAX_ERROR_CHARS) or "(no error output)"
            raise ToolError(f"{name} failed inside the plugin (exit code {proc.returncode}): {detail}")
        if "result" in reply:
            return cap(str(reply["result"]), MAX_OUTPUT_CHARS)
        error = str(reply.get("error", "the plugin gave no result"))
        raise ToolArgumentsError(error) if reply.get("kind") == "arguments" else ToolError(error)

    call.__name__ = call.__qualname__ = name
    return call


async def _start(name: str, run: PythonRun, plugin_dir: Path, ctx: ToolContext) -> asyncio.subprocess.Process:
    package_parent = str(Path(__file__).resolve().parents[2])
    argv = [sys.executable, "-I", "-c", _BOOT, package_parent]
    own = {"ASI_PROJECT_ROOT": str(ctx.root), "ASI_PLUGIN_DIR": str(plugin_dir)}
    if ctx.sandbox is not None:  # contained like a command plugin, with what the manifest entry declares
        network = True if run.network else None
        argv = ctx.sandbox.wrap(argv, cwd=ctx.root, network=network, writable=run.writable, extra_env=own)
    env = {**os.environ, **own}
    try:
        return await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=ctx.root,
            env=env,
            start_new_session=True,  # its own process group: a timeout stops its children too
            limit=_LINE_LIMIT,
        )
    except OSError as exc:
        raise ToolError(f"{name}: cannot start the plugin's process: {exc.strerror or exc}") from exc


async def _converse(
    proc: asyncio.subprocess.Process, request: dict[str, Any], ctx: ToolContext
) -> dict[str, Any] | None:
    """Send the request, answer the child's questions to the model; its final answer (None: it died)."""
    assert proc.stdin is not None and proc.stdout is not None
    _send(proc, request)
    while True:
        try:
            line = await proc.stdout.readline()
        except ValueError:  # a line longer than the limit: not our protocol
            return None
        if not line:
            await proc.wait()
            return None
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return None
        if not isinstance(message, dict):
            return None
        if "ask" not in message:
            return message
        _send(proc, await _answer(message, ctx))
        await proc.stdin.drain()


async def _answer(message: dict[str, Any], ctx: ToolContext) -> dict[str, str]:
    """The session model's answer to a plugin's question, or why there is none."""
    from asi_agent.exceptions import BackendError  # noqa: PLC0415

    if ctx.model is None:
        return {"error": "this tool needs the session's model, and none is available here"}
    system = message.get("system")
    prompt = str(message["ask"])
    try:
        return {"answer": await ctx.model.ask(prompt, system=None if system is None else str(system))}
    except BackendError as exc:
        return {"error": f"the model could not answer: {exc}"}


def _send(proc: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))


async def _drain(stream: asyncio.StreamReader | None) -> str:
    """The child's stderr (its prints and logs), the last part kept."""
    if stream is None:
        return ""
    kept = b""
    while chunk := await stream.read(65536):
        kept = (kept + chunk)[-_STDERR_KEPT:]
    return kept.decode("utf-8", "replace")


async def _finish(proc: asyncio.subprocess.Process) -> None:
    """Let the child exit after its answer (it does at once); stop it if it lingers."""
    if proc.stdin is not None:
        with contextlib.suppress(OSError, RuntimeError):
            proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), _KILL_GRACE)
    except TimeoutError:
        await _kill_group(proc)


async def _kill_group(proc: asyncio.subprocess.Process) -> None:
    """Stop the child and everything it started: TERM, then KILL after a grace period."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            await asyncio.wait_for(proc.wait(), _KILL_GRACE)
            return
        except TimeoutError:
            continue

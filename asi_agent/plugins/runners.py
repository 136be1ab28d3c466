"""How a manifest tool runs: a program (`command`), an SDK function (`python`) or a URL (`http`).

Each maker returns a `ToolFunction`; `sdk_runner` wraps an SDK tool already imported (an installed
plugin package's) the same way as a `python` run. Failures the model should hear about (non-zero exit,
timeout, HTTP error, a plugin raising `ToolError`) become `ToolError`s carrying the plugin's own words.

Python plugins: `"entry": "module:function"` is looked up as a file, first in the manifest folder's
`plugins/`, then in the manifest folder itself (`todo_finder` → `plugins/todo_finder.py`). A manifest's
python tool runs in a child process inside the run's sandbox (`isolated.py`), started for each call
once the permission policy allowed it, never inside asi-agent; its folder is on the child's `sys.path`,
so it may import its sibling modules. `load_entry` imports a module here, for `asi-agent plugins add`
(a file the person names) only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import re
import shlex
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from asi_agent.exceptions import ModelFixableError, ToolError
from asi_agent.sdk import PluginContext, SdkTool
from asi_agent.tools.base import ToolArgs, ToolContext, ToolFunction

if TYPE_CHECKING:
    from asi_agent.plugins.manifest import CommandRun, HttpRun, PythonRun

__all__ = [
    "MAX_ERROR_CHARS",
    "MAX_OUTPUT_CHARS",
    "cap",
    "command_argv",
    "command_runner",
    "find_module",
    "http_runner",
    "install_hint",
    "load_entry",
    "python_runner",
    "sdk_runner",
]

PACKAGE_NAMES = {
    "mcp": "mcp>=2,<3",
    "rope": "rope>=1.13",
    "yaml": "PyYAML",
    "PIL": "Pillow",
    "bs4": "beautifulsoup4",
    "git": "GitPython",
}
"""Import names whose package (or the version asi-agent needs) is named otherwise on PyPI."""

MAX_OUTPUT_CHARS = 100_000
"""Longest result a plugin may return; the rest is cut with a note."""
MAX_ERROR_CHARS = 2_000
"""Longest stderr or HTTP body quoted in an error."""
_KILL_GRACE = 2.0


def command_argv(command: Sequence[str] | str, *, root: Path, plugin_dir: Path) -> list[str]:
    """The argv of a command: a string is split like a shell would (no shell runs); placeholders filled.

    `{python}` is the Python running asi-agent (so a plugin can use `asi_agent.sdk` and the packages
    installed with it), `{project_root}` the project, `{plugin_dir}` the folder of the manifest.
    """
    items = shlex.split(command) if isinstance(command, str) else list(command)
    values = {"{python}": sys.executable, "{project_root}": str(root), "{plugin_dir}": str(plugin_dir)}
    out = []
    for item in items:
        text = item
        for key, value in values.items():
            text = text.replace(key, value)
        out.append(text)
    return out


def command_runner(name: str, run: CommandRun, plugin_dir: Path) -> ToolFunction:
    """Run a program in the project root: arguments on stdin as JSON, stdout is the result."""

    async def call(args: ToolArgs, ctx: ToolContext) -> str:
        argv = command_argv(run.command, root=ctx.root, plugin_dir=plugin_dir)
        own = {"ASI_PROJECT_ROOT": str(ctx.root), "ASI_PLUGIN_DIR": str(plugin_dir), **run.env}
        if ctx.sandbox is not None:  # contained like every command, with what the manifest says it needs
            network = True if run.network else None
            argv = ctx.sandbox.wrap(argv, cwd=ctx.root, network=network, writable=run.writable, extra_env=own)
        env = {**os.environ, **own}
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=ctx.root,
                env=env,
                start_new_session=True,  # its own process group, so a timeout stops its children too
            )
        except OSError as exc:
            raise ToolError(f"{name}: cannot start {argv[0]!r}: {exc.strerror or exc}") from exc
        payload = json.dumps(_arguments(args), ensure_ascii=False).encode("utf-8")
        try:
            out, err = await asyncio.wait_for(proc.communicate(payload), run.timeout)
        except TimeoutError:
            await _stop_group(proc)
            raise ToolError(
                f"{name}: no result after {run.timeout:g} s; the plugin was stopped. "
                "Try smaller input, or another way"
            ) from None
        except asyncio.CancelledError:
            await _stop_group(proc)
            raise
        if proc.returncode != 0:
            detail = cap(err.decode("utf-8", "replace").strip(), MAX_ERROR_CHARS) or "(no error output)"
            raise ToolError(f"{name} failed (exit code {proc.returncode}): {detail}")
        return cap(out.decode("utf-8", "replace"), MAX_OUTPUT_CHARS)

    return _named(call, name)


def python_runner(name: str, run: PythonRun, plugin_dir: Path) -> ToolFunction:
    """Call an SDK tool of a manifest: in a child process inside the run's sandbox (`isolated.py`)."""
    from asi_agent.plugins.isolated import python_child_runner  # noqa: PLC0415 - it imports this module

    return python_child_runner(name, run, plugin_dir)


def sdk_runner(name: str, target: SdkTool, *, timeout: float = 60.0) -> ToolFunction:
    """Call an SDK tool that is already imported (an installed plugin package's)."""

    async def call(args: ToolArgs, ctx: ToolContext) -> str:
        return await _invoke(name, target, args, ctx, timeout)

    return _named(call, name)


async def _invoke(name: str, target: SdkTool, args: ToolArgs, ctx: ToolContext, timeout: float) -> str:
    """Run an SDK tool with its `PluginContext`, cancelled after `timeout` seconds."""
    plugin_ctx = PluginContext(
        root=ctx.root, logger=logging.getLogger(f"asi_agent.plugins.{name}"), model=ctx.model
    )
    try:
        return await asyncio.wait_for(target.invoke(_arguments(args), plugin_ctx), timeout)
    except TimeoutError:
        raise ToolError(f"{name}: no result after {timeout:g} s; the call was cancelled") from None
    except ModelFixableError:
        raise
    except Exception as exc:  # the plugin's own bug: the model hears of it, the run goes on
        raise ToolError(f"{name} failed inside the plugin: {type(exc).__name__}: {exc}") from exc


def http_runner(name: str, run: HttpRun) -> ToolFunction:
    """POST the arguments as JSON; a 2xx response body is the result."""

    async def call(args: ToolArgs, ctx: ToolContext) -> str:
        import httpx  # noqa: PLC0415 - only sessions with http plugins pay for it

        try:
            async with httpx.AsyncClient(timeout=run.timeout) as client:
                response = await client.post(run.url, json=_arguments(args), headers=run.headers)
        except httpx.TimeoutException:
            raise ToolError(f"{name}: {run.url} gave no answer within {run.timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise ToolError(f"{name}: cannot reach {run.url}: {exc}") from exc
        if not response.is_success:
            body = cap(response.text.strip(), MAX_ERROR_CHARS) or "(empty body)"
            raise ToolError(f"{name}: {run.url} answered HTTP {response.status_code}: {body}")
        return cap(response.text, MAX_OUTPUT_CHARS)

    return _named(call, name)


def install_hint(text: str) -> str:
    """When `text` says a Python module is missing: which, and the command that most likely installs it."""
    found = re.search(r"No module named '([A-Za-z0-9_]+)", text)
    if found is None:
        return ""
    name = found[1]
    package = PACKAGE_NAMES.get(name, name.replace("_", "-"))
    command = f"pip install '{package}'" if re.search(r"[<>=,]", package) else f"pip install {package}"
    return f" (the Python package {package.split('>')[0]!r} is not installed: {command})"


def find_module(module: str, plugin_dir: Path) -> Path | None:
    """The file of `module` in `plugin_dir/plugins/` or `plugin_dir`, if there is one."""
    rel = Path(*module.split("."))
    for base in (plugin_dir / "plugins", plugin_dir):
        for candidate in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def load_entry(tool: str, module: str, function: str, plugin_dir: Path) -> SdkTool:
    """The SDK tool behind an entry, (re)importing its module when the file changed."""
    path = find_module(module, plugin_dir)
    if path is None:
        raise ToolError(
            f"{tool}: plugin module {module!r} not found in {plugin_dir / 'plugins'} or {plugin_dir}"
        )
    loaded = _import_file(tool, path)
    target = getattr(loaded, function, None)
    if not isinstance(target, SdkTool):
        raise ToolError(
            f"{tool}: {module}:{function} is not a tool; decorate the function with @tool from asi_agent.sdk"
        )
    return target


def _import_file(tool: str, path: Path) -> ModuleType:
    """Import a plugin file under a private name; a changed file is imported again."""
    stat = path.stat()
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    private = f"_asi_plugin_{key}"
    cached = sys.modules.get(private)
    if cached is not None and getattr(cached, "__asi_mtime__", None) == stat.st_mtime_ns:
        return cached
    spec = importlib.util.spec_from_file_location(private, path)
    if spec is None or spec.loader is None:
        raise ToolError(f"{tool}: cannot import {path.name}")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the plugin's own bug: report it to the model instead of ending the run
        raise ToolError(
            f"{tool}: importing {path.name} failed: {type(exc).__name__}: {exc}{install_hint(str(exc))}"
        ) from exc
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)
    module.__dict__["__asi_mtime__"] = stat.st_mtime_ns
    sys.modules[private] = module
    return module


async def _stop_group(proc: asyncio.subprocess.Process) -> None:
    """Stop the plugin and everything it started: TERM, then KILL after a grace period."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            await asyncio.wait_for(proc.wait(), _KILL_GRACE)
            return
        except TimeoutError:
            continue


def _arguments(args: ToolArgs) -> dict[str, Any]:
    """The validated arguments as the JSON object the plugin receives."""
    return args.model_dump(mode="json")


def cap(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with a note saying how much was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... cut: {len(text) - limit} more characters]"


def _named(function: ToolFunction, name: str) -> ToolFunction:
    function.__name__ = function.__qualname__ = name
    return function

"""The runners, run for real: programs, SDK functions, a local HTTP server; and plugin argument checks."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from asi_agent.exceptions import ToolArgumentsError, ToolError
from asi_agent.plugins import build_registry
from asi_agent.plugins.runners import command_argv
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File to read"},
        "mode": {"type": "string", "enum": ["fast", "slow"]},
        "count": {"type": "integer"},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def manifest(root: Path, *tools: dict) -> None:
    (root / "moss-tools.json").write_text(json.dumps({"version": 1, "tools": list(tools)}), encoding="utf-8")


def entry(name: str, run: dict, parameters: dict | None = None) -> dict:
    return {"name": name, "description": f"the {name} tool", "parameters": parameters or SCHEMA, "run": run}


def script(root: Path, name: str, body: str) -> list[str]:
    (root / name).write_text(body, encoding="utf-8")
    return ["{python}", name]


async def call(root: Path, name: str, arguments: dict) -> str:
    registry, problems = build_registry(root, root / "user", trusted=True)
    assert problems == []
    args = registry.validate(name, arguments)
    return await registry.get(name).run(args, ToolContext(root, Journal(root / ".asi")))


async def test_command_gets_json_on_stdin_runs_in_root_and_returns_stdout(tmp_path):
    argv = script(
        tmp_path, "echo.py", "import json,os,sys\nprint(json.dumps([json.load(sys.stdin), os.getcwd()]))"
    )
    manifest(tmp_path, entry("echo", {"type": "command", "command": argv}))
    out = json.loads(await call(tmp_path, "echo", {"path": "a.txt", "count": 2}))
    assert out == [{"path": "a.txt", "count": 2}, str(tmp_path)]


async def test_command_as_a_string_with_placeholders(tmp_path):
    script(tmp_path, "hello.py", "import sys\nprint('hi', sys.argv[1])")
    manifest(tmp_path, entry("hello", {"type": "command", "command": "{python} hello.py 'two words'"}))
    assert await call(tmp_path, "hello", {"path": "x"}) == "hi two words\n"


async def test_command_non_zero_exit_is_a_tool_error_with_stderr(tmp_path):
    argv = script(tmp_path, "fail.py", "import sys\nsys.stderr.write('no such file: x\\n')\nsys.exit(3)")
    manifest(tmp_path, entry("fail", {"type": "command", "command": argv}))
    with pytest.raises(ToolError, match=r"fail failed \(exit code 3\): no such file: x"):
        await call(tmp_path, "fail", {"path": "x"})


async def test_command_stderr_is_capped(tmp_path):
    argv = script(tmp_path, "noisy.py", "import sys\nsys.stderr.write('e' * 50000)\nsys.exit(1)")
    manifest(tmp_path, entry("noisy", {"type": "command", "command": argv}))
    with pytest.raises(ToolError) as caught:
        await call(tmp_path, "noisy", {"path": "x"})
    assert len(str(caught.value)) < 2_200 and "more characters" in str(caught.value)


async def test_command_timeout_kills_the_process_group(tmp_path):
    # The plugin starts a child that would outlive it; both must be gone after the timeout.
    body = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "open('child.pid', 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    argv = script(tmp_path, "hang.py", body)
    manifest(tmp_path, entry("hang", {"type": "command", "command": argv, "timeout": 0.5}))
    started = time.monotonic()
    with pytest.raises(ToolError, match=r"no result after 0.5 s; the plugin was stopped"):
        await call(tmp_path, "hang", {"path": "x"})
    assert time.monotonic() - started < 10
    child = int((tmp_path / "child.pid").read_text())
    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the plugin's child process survived the timeout")


async def test_command_that_cannot_start(tmp_path):
    manifest(tmp_path, entry("ghost", {"type": "command", "command": ["./does-not-exist"]}))
    with pytest.raises(ToolError, match=r"cannot start './does-not-exist'"):
        await call(tmp_path, "ghost", {"path": "x"})


SDK_PLUGIN = '''
from asi_agent.sdk import BaseModel, PluginContext, ToolError, ToolResult, tool
from helper import shout

class Args(BaseModel):
    path: str
    count: int = 1

@tool(risk="read")
async def read_twice(args: Args, ctx: PluginContext) -> ToolResult:
    """Read a file and repeat it."""
    file = ctx.root / args.path
    if not file.exists():
        raise ToolError(f"{args.path} does not exist; give an existing file")
    return ToolResult(shout(file.read_text()) * args.count, data={"bytes": file.stat().st_size})

def not_a_tool(args, ctx):
    return "x"
'''


@pytest.fixture
def sdk_project(tmp_path: Path) -> Path:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "reader.py").write_text(SDK_PLUGIN, encoding="utf-8")
    (plugins / "helper.py").write_text("def shout(text):\n    return text.upper()\n", encoding="utf-8")
    (tmp_path / "note.txt").write_text("ab", encoding="utf-8")
    return tmp_path


async def test_python_sdk_tool_runs_with_sibling_imports(sdk_project):
    manifest(sdk_project, entry("reader", {"type": "python", "entry": "reader:read_twice"}))
    out = await call(sdk_project, "reader", {"path": "note.txt", "count": 2})
    assert out == 'ABAB\n{\n  "bytes": 2\n}'


async def test_python_sdk_tool_error_reaches_the_model(sdk_project):
    manifest(sdk_project, entry("reader", {"type": "python", "entry": "reader:read_twice"}))
    with pytest.raises(ToolError, match=r"missing.txt does not exist"):
        await call(sdk_project, "reader", {"path": "missing.txt"})


async def test_python_entry_that_is_not_an_sdk_tool(sdk_project):
    manifest(sdk_project, entry("plain", {"type": "python", "entry": "reader:not_a_tool"}))
    with pytest.raises(ToolError, match=r"not a tool; decorate the function with @tool"):
        await call(sdk_project, "plain", {"path": "note.txt"})


async def test_python_module_is_imported_on_first_call_only(sdk_project):
    (sdk_project / "plugins" / "boom.py").write_text("raise RuntimeError('plugin bug')\n", encoding="utf-8")
    manifest(sdk_project, entry("boom", {"type": "python", "entry": "boom:run"}))
    # listing imports nothing
    registry, problems = build_registry(sdk_project, sdk_project / "user", trusted=True)
    assert problems == [] and "boom" in registry
    with pytest.raises(ToolError, match=r"importing boom.py failed: RuntimeError: plugin bug"):
        await call(sdk_project, "boom", {"path": "x"})


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/fail":
            self._send(500, b"database is down; retry later")
        elif self.path == "/slow":
            time.sleep(2)
            self._send(200, b"late")
        else:
            self._send(200, json.dumps({"got": body, "auth": self.headers.get("X-Token")}).encode())

    def _send(self, status: int, data: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (the timeout test): nothing to answer

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def http_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


async def test_http_posts_json_and_returns_the_body(tmp_path, http_url):
    run = {"type": "http", "url": f"{http_url}/ok", "headers": {"X-Token": "t1"}}
    manifest(tmp_path, entry("web", run))
    assert json.loads(await call(tmp_path, "web", {"path": "p"})) == {"got": {"path": "p"}, "auth": "t1"}


async def test_http_non_2xx_is_a_tool_error_with_the_body(tmp_path, http_url):
    manifest(tmp_path, entry("web", {"type": "http", "url": f"{http_url}/fail"}))
    with pytest.raises(ToolError, match=r"answered HTTP 500: database is down; retry later"):
        await call(tmp_path, "web", {"path": "p"})


async def test_http_timeout(tmp_path, http_url):
    manifest(tmp_path, entry("web", {"type": "http", "url": f"{http_url}/slow", "timeout": 0.3}))
    with pytest.raises(ToolError, match=r"gave no answer within 0.3 s"):
        await call(tmp_path, "web", {"path": "p"})


def test_plugin_arguments_are_checked_against_the_json_schema(tmp_path):
    manifest(tmp_path, entry("checked", {"type": "command", "command": ["true"]}))
    registry, _ = build_registry(tmp_path, tmp_path / "user", trusted=True)
    with pytest.raises(ToolArgumentsError) as caught:
        registry.validate("checked", {"mode": "quick", "count": "2", "colour": 1})
    lines = str(caught.value).splitlines()
    assert "checked: missing required parameter 'path': expected string (File to read)." in lines
    assert (
        'checked: invalid parameter \'mode\': expected one of "fast", "slow", received "quick" (a string).'
        in lines
    )
    assert "checked: invalid parameter 'count': expected integer, received \"2\" (a string)." in lines
    assert any(
        line.startswith("checked: unknown parameter 'colour'")
        and "Valid parameters: path, mode, count" in line
        for line in lines
    )


def test_plugin_arguments_near_miss_names_are_mapped(tmp_path):
    manifest(tmp_path, entry("checked", {"type": "command", "command": ["true"]}))
    registry, _ = build_registry(tmp_path, tmp_path / "user", trusted=True)
    args = registry.validate("checked", {"Path": "a.txt", "COUNT": 3})
    assert args.model_dump() == {"path": "a.txt", "count": 3}


def test_sys_executable_is_the_python_placeholder(tmp_path):
    argv = command_argv(
        ["{python}", "{plugin_dir}/x.py", "{project_root}"], root=tmp_path, plugin_dir=tmp_path / "u"
    )
    assert argv == [sys.executable, f"{tmp_path / 'u'}/x.py", str(tmp_path)]


async def test_python_tool_runs_in_its_own_process_and_is_stopped_on_timeout(sdk_project):
    (sdk_project / "plugins" / "nap.py").write_text(
        "import os, time\nfrom asi_agent.sdk import BaseModel, tool\n\nclass A(BaseModel):\n    path: str\n\n"
        "@tool(risk='execute')\ndef nap(args: A, ctx) -> str:\n"
        "    if args.path == 'pid':\n        return str(os.getpid())\n"
        "    time.sleep(30)\n    return 'woke'\n",
        encoding="utf-8",
    )
    manifest(sdk_project, entry("nap", {"type": "python", "entry": "nap:nap", "timeout": 1}))
    assert await call(sdk_project, "nap", {"path": "pid"}) != str(os.getpid())
    begun = time.monotonic()
    with pytest.raises(ToolError, match=r"nap: no result after 1 s; the plugin was stopped"):
        await call(sdk_project, "nap", {"path": "sleep"})
    assert time.monotonic() - begun < 10

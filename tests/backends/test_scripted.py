"""ScriptedBackend: replies from objects and from files, recorded requests, running out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asi_agent.backends import ScriptedBackend, ScriptedBackendConfig, ScriptedCall, ScriptedReply
from asi_agent.exceptions import BackendError, ConfigError
from asi_agent.messages import Message, RawCall, Usage

TOOL = {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}


async def test_plays_replies_in_order_and_records_requests():
    backend = ScriptedBackend(
        [
            ScriptedReply(
                text="Reading a.py now.", calls=[ScriptedCall(name="read_file", arguments={"path": "a.py"})]
            ),
            "All done.",
        ]
    )
    deltas: list[str] = []
    first_messages = [Message("user", "Show me a.py")]

    first = await backend.complete(first_messages, [TOOL], on_delta=deltas.append)
    second = await backend.complete([*first_messages, Message("assistant", first.text)])

    assert first.text == "Reading a.py now." and len(deltas) > 1 and "".join(deltas) == first.text
    assert first.native_calls == (RawCall(None, "read_file", {"path": "a.py"}),)
    assert first.finish_reason == "tool_calls"
    assert second.text == "All done." and second.native_calls == () and second.finish_reason == "stop"
    assert backend.requests == [
        (first_messages, [TOOL]),
        ([*first_messages, Message("assistant", "Reading a.py now.")], None),
    ]
    assert await backend.supports_native_tools() is True
    assert backend.remaining == 0 and backend.model_name == "scripted"


async def test_usage_is_a_rough_token_count():
    backend = ScriptedBackend(["x" * 40])

    completion = await backend.complete([Message("user", "y" * 80)])

    assert completion.usage == Usage(20 + len("[]") // 4, 10)


async def test_running_out_of_replies_raises_backend_error():
    backend = ScriptedBackend(["one", "two"])
    await backend.complete([Message("user", "a")])
    await backend.complete([Message("user", "b")])

    with pytest.raises(BackendError, match=r"scripted backend has no reply left \(2 used\)"):
        await backend.complete([Message("user", "c")])
    assert len(backend.requests) == 3


async def test_loads_a_script_file(tmp_path: Path):
    script = tmp_path / "demo.json"
    replies = [
        "Plan: read the file.",
        {"text": "", "tool_calls": [{"name": "read_file", "arguments": '{"path": "a.py"}', "id": "call_1"}]},
    ]
    script.write_text(json.dumps({"native": False, "replies": replies}), encoding="utf-8")

    backend = ScriptedBackend.from_file(script)

    assert await backend.supports_native_tools() is False
    assert backend.model_name == "demo"
    assert (await backend.complete([Message("user", "go")])).text == "Plan: read the file."
    completion = await backend.complete([Message("user", "go on")])
    assert completion.native_calls == (RawCall("call_1", "read_file", '{"path": "a.py"}'),)


async def test_config_overrides_the_native_flag(tmp_path: Path):
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"replies": ["hi"]}), encoding="utf-8")

    default = ScriptedBackend.from_config(ScriptedBackendConfig(script=script))
    text_mode = ScriptedBackend.from_config(ScriptedBackendConfig(script=script, native=False))

    assert await default.supports_native_tools() is True
    assert await text_mode.supports_native_tools() is False


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"replies": [{"txt": "typo"}]}', r"replies\.\d+.*txt"),
        ('{"replies": "not a list"}', "replies"),
        ("{not json", "bad script"),
    ],
)
def test_bad_script_names_the_problem(tmp_path: Path, content: str, expected: str):
    script = tmp_path / "bad.json"
    script.write_text(content, encoding="utf-8")

    with pytest.raises(ConfigError, match=expected):
        ScriptedBackend.from_file(script)


def test_missing_script_is_a_config_error(tmp_path: Path):
    with pytest.raises(ConfigError, match="cannot read the script"):
        ScriptedBackend.from_file(tmp_path / "absent.json")

"""Every export format through ms-swift's own dataset preprocessing and agent templates.

ms-swift (`pip install ms-swift`) brings torch, transformers and trl with it; where it is not installed
the test is skipped, saying so. Preprocessing runs with `strict=True`: ms-swift otherwise drops a row it
cannot read and carries on.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asi_cli import asi

pytestmark = pytest.mark.slow

SCRIPT = {
    "native": True,
    "replies": [
        {"text": "Let me look.", "tool_calls": [{"name": "open_file", "arguments": {"path": "calc.py"}}]},
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]},
        {"tool_calls": [{"name": "run_terminal_cmd", "arguments": {"command": "rm -rf ~"}}]},
        {
            "tool_calls": [
                {
                    "name": "replace_text",
                    "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"},
                }
            ]
        },
        "Fixed add: it now returns a + b.\nAGENT_STATUS: DONE",
    ],
}
REASON = "ms-swift is not installed (pip install ms-swift; it brings torch, transformers and trl)"
dataset = pytest.importorskip("swift.dataset", reason=REASON)
templates = pytest.importorskip("swift.agent_template", reason=REASON)
inputs = pytest.importorskip("swift.template.template_inputs", reason=REASON)
SWIFT_ROLES = {"system", "user", "assistant", "tool_call", "tool_response", "tool"}
FORMATS = {
    "asi.jsonl": (),
    "swift.jsonl": ("--format", "ms-swift"),
    "failures.jsonl": ("--failures",),
    "swift-failures.jsonl": ("--failures", "--format", "ms-swift"),
    "dpo.jsonl": ("--dpo",),
    "swift-dpo.jsonl": ("--dpo", "--format", "ms-swift"),
}


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    root = tmp_path_factory.mktemp("swift")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "s.json").write_text(json.dumps(SCRIPT))
    done = asi("run", "--provider", "scripted", "--model", "s.json", "--yes", "Fix add in calc.py", cwd=root)
    assert done.returncode == 0, done.stderr
    files = {}
    for name, args in FORMATS.items():
        done = asi("data", "export", *args, "--redact", "-o", name, cwd=root)
        assert done.returncode == 0, done.stderr
        files[str(root / name)] = [json.loads(line) for line in (root / name).read_text().splitlines()]
    return files


def test_ms_swift_preprocessing_reads_every_export(exports: dict[str, list[dict[str, Any]]]):
    for path, rows in exports.items():
        if path.endswith("/dpo.jsonl"):
            continue  # the §6.2 pair form (chosen/rejected turns); ms-swift reads pairs in its own form
        loaded, _ = dataset.load_dataset([path], strict=True, load_from_cache_file=False)
        assert len(loaded) == len(rows), path
        for row, original in zip(loaded, rows, strict=True):
            messages = row["messages"]
            assert {m["role"] for m in messages} <= SWIFT_ROLES, path
            assert messages[0]["content"] == original["messages"][0]["content"], path  # the sent system text
            if "dpo" in path:
                assert row["rejected_messages"] and row["rejected_messages"] != messages, path
            else:  # the masked mistakes keep their loss field through preprocessing
                assert any(m.get("loss") is False for m in messages), path


def test_ms_swift_agent_templates_format_every_export(exports: dict[str, list[dict[str, Any]]]):
    for name in ("hermes", "qwen_en", "react_en"):
        agent = templates.agent_template_map[name]()
        for path, rows in exports.items():
            if "dpo" in path:
                continue  # a pair's sides are formatted like any conversation
            for row in rows:
                std = inputs.StdTemplateInputs.from_dict(row)
                tools = std.tools if isinstance(std.tools, list) else json.loads(std.tools)
                system = agent._format_tools(tools, std.system)
                assert std.system and system.startswith(std.system)
                calls = [m for m in std.messages if m["role"] == "tool_call"]
                results = [m for m in std.messages if m["role"] == "tool"]
                assert calls and len(calls) == len(results)
                for call in calls:
                    assert json.loads(call["content"])["name"] in agent._format_tool_calls([call])
                _, formatted = agent._format_tool_responses("", results)
                text = "".join(part for part in formatted if isinstance(part, str))
                for result in results:
                    assert result["content"] in text  # the raw result text, as the model read it

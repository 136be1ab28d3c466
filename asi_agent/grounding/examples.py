"""A short worked example, rendered in the model's own chat template before the conversation."""

from __future__ import annotations

import json

__all__ = ["worked_example"]

_READ = {
    "en": ("Show me the contents of notes.txt.", "notes.txt (2 lines)\n    1| buy milk\n    2| call Anna"),
    "zh": ("显示 notes.txt 的内容。", "notes.txt (2 lines)\n    1| buy milk\n    2| call Anna"),
}
_EDIT = {
    "en": "In notes.txt, change `buy milk` to `buy bread`.",
    "zh": "在 notes.txt 中把 `buy milk` 改成 `buy bread`。",
}


def _call(name: str, arguments: dict[str, str]) -> str:
    return json.dumps({"tool": name, "arguments": arguments}, ensure_ascii=False)


def _answer(text: str) -> str:
    return json.dumps({"answer": text}, ensure_ascii=False)


def worked_example(language: str, *, edit: bool) -> list[tuple[str, str]]:
    """Chat turns `(role, content)`: a task, a call, its result, the answer (for edits: read, replace)."""
    lang = "zh" if language == "zh" else "en"
    task, listing = _READ[lang]
    read = [
        ("assistant", _call("read_file", {"path": "notes.txt"})),
        ("user", f"Result of read_file:\n{listing}"),
    ]
    if not edit:
        return [("user", task), *read, ("assistant", _answer("buy milk\ncall Anna"))]
    replace = {"path": "notes.txt", "oldText": "buy milk", "newText": "buy bread"}
    done = "Replaced 1 occurrence in notes.txt."
    return [
        ("user", _EDIT[lang]),
        *read,
        ("assistant", _call("replace_text", replace)),
        ("user", f"Result of replace_text:\n{done}"),
        ("assistant", _answer(done)),
    ]

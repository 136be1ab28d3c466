"""From the edits a request states to the calls that make them: a plan of steps, worked out on the files.

Each `Edit` of `grounding.request` becomes the new text of every file it means — a rename in every file
that uses the name, a replacement in the file the request names (or the one file that holds the old
text), a setting's line, each version line, an import, a docstring below its `def`, a function at the
end, a removed line, a new file — and each changed file becomes one `replace_lines` / `insert_line` /
`delete_lines` / `create_file` call over the lines that differ. The edits are worked out one after the
other on the text the previous ones leave, so the line numbers of the plan hold when it runs in order.
An edit that no file fits adds no step; the plan is then shorter than the request, and the run's checks
decide whether what is left was done.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from asi_agent.grounding.clauses import name_words
from asi_agent.grounding.project import ProjectView
from asi_agent.grounding.request import Edit
from asi_agent.grounding.rewrite import CODE, DATA, MODEL_TEXT, TRANSFORMS, hint_words
from asi_agent.grounding.settings import key_line, set_setting

__all__ = ["PlannedCall", "plan_calls"]

_MAX_FILES = 2000  # files whose text is looked at; a bigger project is planned on its first ones
_MAX_BYTES = 200_000
_TEXT = (
    *CODE,
    ".toml",
    ".json",
    ".yaml",
    ".yml",
    ".cfg",
    ".ini",
    ".txt",
    ".md",
    ".rst",
    ".html",
    ".css",
    ".env",
)


@dataclass(frozen=True, slots=True)
class PlannedCall:
    """One step of the plan: a tool call with every argument decided."""

    name: str
    arguments: dict[str, Any]
    after: str | None = None
    """The text of the file once the step is made (a step whose file already reads so is done)."""
    open: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Arguments the model writes one sentence of (a docstring's words), each with the planned text
    before and after that sentence (`grounding.steps.framed`)."""


@dataclass
class _Files:
    """The project's text files as the plan leaves them (edits are worked out one after the other)."""

    view: ProjectView
    task: str = ""
    texts: dict[str, str | None] = field(default_factory=dict)
    original: dict[str, str | None] = field(default_factory=dict)

    def text(self, rel: str) -> str | None:
        if rel not in self.texts:
            value = self.view.small_text(rel, _MAX_BYTES) if rel in self.view.files else None
            self.texts[rel] = self.original[rel] = value
        return self.texts[rel]

    def all(self) -> list[tuple[str, str]]:
        rels = [f for f in self.view.files[:_MAX_FILES] if f.endswith(_TEXT)]
        return [(rel, text) for rel in rels if (text := self.text(rel)) is not None]


def plan_calls(edits: Sequence[Edit], view: ProjectView, task: str) -> list[PlannedCall]:
    """The calls that make `edits` in the project, in order; empty when no file fits any of them."""
    files = _Files(view, task)
    named = view.mentioned_files(task)
    touched: list[str] = []
    values: list[tuple[str, str]] = []  # (old, new) of the values changed so far, for "… too"
    for edit in edits:
        if edit.kind == "also":
            changes = _also(edit, files, values)
        else:
            changes = _apply(edit, files, named)
            values += [pair for rel, new in changes if (pair := _value_change(files.text(rel), new))]
        for rel, new in changes:
            files.texts[rel] = new
            if rel not in touched:
                touched.append(rel)
    calls: list[PlannedCall] = []
    for rel in touched:
        before, after = files.original.get(rel), files.texts[rel]
        if after is not None and before != after:
            calls.extend(_opened(call) for call in _calls_for(rel, before, after))
    return calls


def _opened(call: PlannedCall) -> PlannedCall:
    """The call, with the text the request does not state (`MODEL_TEXT`) left to the model: the argument
    that holds it is the planned text around one sentence the model writes."""
    for key, value in call.arguments.items():
        if isinstance(value, str) and MODEL_TEXT in value:
            before, _, after = value.partition(MODEL_TEXT)
            fixed = {name: v for name, v in call.arguments.items() if name != key}
            return PlannedCall(call.name, fixed, None, {key: (before, after)})
    return call


def _value_change(before: str | None, after: str) -> tuple[str, str] | None:
    """The value one changed line holds before and after (quotes left out), if one line changed."""
    if before is None:
        return None
    old_lines, new_lines = before.split("\n"), after.split("\n")
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=False) if a != b]
    if len(changed) != 1 or len(old_lines) != len(new_lines):
        return None
    a, b = (re.split(r"\s*[=:]\s*", line, maxsplit=1)[-1].strip().strip("\"',") for line in changed[0])
    return (a, b) if a and b and a != b else None


def _also(edit: Edit, files: _Files, values: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """ "… and in the README too": the values changed so far, changed in the files this clause names."""
    stems = {w.lower() for w in re.findall(r"[A-Za-z_][\w.-]*", edit.target)}
    named = [
        rel
        for rel in files.view.files
        if PurePosixPath(rel).name.lower() in stems or PurePosixPath(rel).stem.lower() in stems
    ] + files.view.mentioned_files(edit.target)
    changes: list[tuple[str, str]] = []
    for rel in dict.fromkeys(named):
        text = files.texts.get(rel) if rel in files.texts else files.text(rel)
        if text is None:
            continue
        new = text
        for old_value, new_value in values:
            new = new.replace(old_value, new_value)
        if new != text:
            changes.append((rel, new))
    return changes


def _apply(edit: Edit, files: _Files, named: list[str]) -> list[tuple[str, str]]:
    """The files `edit` changes, with their new text."""
    if edit.kind == "create":
        return _create(edit, files)
    targets = _targets(edit, files, named)
    changed: list[tuple[str, str]] = []
    for rel in targets:
        text = files.text(rel)
        if text is None:
            continue
        new = TRANSFORMS[edit.kind](edit, rel, text)
        if new is not None and new != text:
            changed.append((rel, new))
    return changed


def _targets(edit: Edit, files: _Files, named: list[str]) -> list[str]:
    """The files an edit is about: those the request names, else those that hold what it changes."""
    if edit.kind == "rename":  # every file that uses the name, named or not (and settings keyed by it)
        word = re.compile(rf"(?<![\w]){re.escape(edit.old)}(?!\w)")
        key = re.compile(rf"""^\s*["']?{re.escape(edit.old)}["']?\s*[=:]""", re.MULTILINE)
        told = (
            set(named)
            | set(files.view.mentioned_files(edit.context))
            | set(_loosely_named(files.view, files.task))
        )
        return [
            rel
            for rel, text in files.all()
            if (rel.endswith(CODE) and word.search(text))
            or (rel.endswith(DATA) and key.search(text))
            or (rel in told and word.search(text))
        ]
    if named:
        return named[:3]
    holders: list[str] = []
    settings: list[str] = []  # for a replacement: the files where it is a setting's new value
    for rel, text in files.all():
        if TRANSFORMS[edit.kind](edit, rel, text) not in (None, text):
            holders.append(rel)
            if edit.kind in ("replace", "remove") and key_line(edit.old, text, fuzzy=False) is not None:
                settings.append(rel)
    if len(settings) == 1:
        return settings
    if edit.kind == "version":
        return holders[:4]  # "bump the version in both places"
    if len(holders) > 1:  # "get rid of the "round" easing": the file whose path the request's words name
        hinted = [rel for rel in holders if set(hint_words(edit)) & set(name_words(rel))]
        holders = hinted if len(hinted) == 1 else holders
    if len(holders) > 1 and edit.kind in ("set", "assign", "remove"):  # a setting lives in settings, not docs
        for kind in (DATA, CODE):
            ranked = [rel for rel in holders if rel.endswith(kind)]
            if ranked:
                holders = ranked
                break
    return holders if len(holders) == 1 else []


def _loosely_named(view: ProjectView, text: str) -> list[str]:
    """Files the text names by their stem alone ("the README", "test.js 和 README")."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w-]{3,}", text)}
    return [rel for rel in view.files if PurePosixPath(rel).stem.lower() in words]


def _create(edit: Edit, files: _Files) -> list[tuple[str, str]]:
    name = edit.target or ("config.toml" if "=" in edit.new else "")
    if not name or not edit.new:
        return []
    text = files.text(name)
    if text is not None:  # "add debug = true to config.toml": the file is there, set or add the line
        key, _, value = edit.new.partition("=")
        changed = (
            set_setting(Edit("set", new=value.strip(), target=key.strip()), name, text) if value else None
        )
        return [(name, changed if changed is not None else text.rstrip("\n") + "\n" + edit.new + "\n")]
    content = edit.new
    if PurePosixPath(name).suffix == ".json" and "=" in content:
        key, value = (part.strip() for part in content.split("=", 1))
        content = f'{{\n  "{key}": {value}\n}}'
    elif PurePosixPath(name).suffix == ".ini" and "=" in content and not content.startswith("["):
        content = f"[{PurePosixPath(name).stem}]\n{content}"  # pytest.ini → [pytest], tox.ini → [tox]
    elif PurePosixPath(name).suffix in (".yaml", ".yml") and "=" in content:
        key, value = (part.strip() for part in content.split("=", 1))
        content = f"{key}: {value}"
    files.texts[name] = files.original[name] = None
    return [(name, content + "\n")]


# -- from two texts to the calls ----------------------------------------------------------------


def _lines(text: str) -> list[str]:
    """A text's lines as the edit tools number them (a final newline ends the last line)."""
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _calls_for(rel: str, before: str | None, after: str) -> list[PlannedCall]:
    """One call that turns `before` into `after`: the span of lines that differ, replaced."""
    if before is None:
        return [PlannedCall("create_file", {"path": rel, "content": after}, after)]
    old, new = _lines(before), _lines(after)
    blocks = [
        op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"
    ]
    if not blocks:
        return []
    start, end = blocks[0][1], blocks[-1][2]
    first, last = blocks[0][3], blocks[-1][4]
    text = "\n".join(new[first:last])
    if start == end:  # only lines added
        return [PlannedCall("insert_line", {"path": rel, "line": start + 1, "text": text}, after)]
    if first == last:  # only lines removed
        return [PlannedCall("delete_lines", {"path": rel, "startLine": start + 1, "endLine": end}, after)]
    arguments = {"path": rel, "startLine": start + 1, "endLine": end, "newText": text}
    return [PlannedCall("replace_lines", arguments, after)]

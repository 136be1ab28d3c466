"""`asi-agent plugins new NAME`: a small plugin project that installs with pip and is found on its own.

    NAME/
      pyproject.toml        the entry point in the `asi_agent.plugins` group, built with hatchling
      README.md             install, try, test, publish
      src/<module>/__init__.py
      src/<module>/tools.py one example tool: word and line counts of a project file, an optional
                            one-line summary asked of the session's model
      tests/test_tools.py   the tool called as asi-agent would (`asi_agent.sdk.testing.call_tool`)

The package is NAME, its module NAME with `-` and `.` as `_`, and the example tool is named after the
module, so two scaffolded plugins never clash.
"""

from __future__ import annotations

import keyword
import re
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from asi_agent.exceptions import UserError

__all__ = ["PluginNames", "plugin_names", "write_scaffold"]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*$")

PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.25"]
build-backend = "hatchling.build"

[project]
name = "{package}"
version = "0.1.0"
description = "An asi-agent plugin: {tool}, word and line counts of a project file"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["asi-agent>={asi_version}"]

[project.optional-dependencies]
test = ["pytest>=8"]

# asi-agent finds the plugin through this entry point: a module of @tool functions.
[project.entry-points."asi_agent.plugins"]
"{package}" = "{module}.tools"

[tool.hatch.build.targets.wheel]
packages = ["src/{module}"]

[tool.hatch.build]
dev-mode-dirs = ["src"]  # `pip install -e`: src/ on the path, no extra build requirement
"""

INIT = '''\
"""{package}: an asi-agent plugin. Its tools are in `{module}.tools`."""
'''

TOOLS = '''\
"""The tools of {package}. Every `@tool` function of this module is offered to the model."""

from __future__ import annotations

from asi_agent.sdk import BaseModel, Field, PluginContext, ToolError, tool


class {args}(BaseModel):
    path: str = Field(description="A text file, relative to the project root")
    summary: bool = Field(False, description="Also ask the model for a one-line summary of the file")


@tool(name="{tool}", description="Count the words and lines of a text file in the project", risk="read")
async def {tool}(args: {args}, ctx: PluginContext) -> str:
    root = ctx.root.resolve()
    file = (root / args.path).resolve()
    if not file.is_relative_to(root):
        raise ToolError(f"{{args.path}} is outside the project; give a path relative to the project root")
    if not file.is_file():
        raise ToolError(f"{{args.path}} is not a file; give the path of a text file in the project")
    text = file.read_text(encoding="utf-8", errors="replace")
    result = f"{{args.path}}: {{len(text.split())}} words, {{len(text.splitlines())}} lines"
    if args.summary:
        answer = await ctx.ask_model(f"Summarize this file in one line:\\n\\n{{text[:4000]}}")
        result += f"\\nsummary: {{answer.strip()}}"
    return result
'''

TEST = '''\
"""{tool} called as asi-agent calls it: arguments checked against its schema, a real project folder."""

import pytest
from asi_agent.sdk.testing import ToolArgumentsError, ToolError, call_tool

from {module}.tools import {tool}


def test_counts_words_and_lines():
    assert call_tool({tool}, {{"path": "a.txt"}}, files={{"a.txt": "one two\\nthree\\n"}}) == (
        "a.txt: 3 words, 2 lines"
    )


def test_the_summary_comes_from_the_model():
    files = {{"a.txt": "hi there\\nyou\\n"}}
    out = call_tool({tool}, {{"path": "a.txt", "summary": True}}, files=files, model="A greeting.")
    assert out == "a.txt: 3 words, 2 lines\\nsummary: A greeting."


def test_what_the_model_is_told_when_it_errs():
    with pytest.raises(ToolError, match="not a file"):
        call_tool({tool}, {{"path": "missing.txt"}})
    with pytest.raises(ToolArgumentsError, match="path"):
        call_tool({tool}, {{}})
'''

README = """\
# {package}

An asi-agent plugin. Its tool `{tool}` counts the words and lines of a text file in the project and
can ask the session's model for a one-line summary.

## Use it

```sh
asi-agent plugins install -e ./{package}   # pip, in the environment asi-agent runs in
asi-agent plugins                          # lists {package} and its tools
asi-agent run "How many words are in README.md? Use {tool}."
```

A project turns it off with `disabled_plugins = ["{package}"]` in its `.asi/config.toml`.

## Change it

The tools live in `src/{module}/tools.py`: every `@tool` function there is offered to the model, with the
arguments model as its parameter schema and `risk` (`read`, `write`, `execute`, `network`) as its
permission class. Raise `ToolError` with a message that tells the model what to do instead.

## Test it

```sh
pip install -e './{package}[test]'
pytest {package}/tests
```

`call_tool` from `asi_agent.sdk.testing` runs a tool as asi-agent would: the arguments are checked against
its schema, it gets a real `PluginContext` on a temporary project (`files=`), and `ctx.ask_model` is
answered by `model=`.
"""


class PluginNames:
    """The names of a scaffolded plugin: its package, module, tool and arguments model."""

    def __init__(self, name: str) -> None:
        self.package = name
        self.module = re.sub(r"[-.]+", "_", name).lower()
        self.tool = self.module
        self.args = "".join(part.capitalize() for part in self.module.split("_")) + "Args"


def plugin_names(name: str, taken: set[str]) -> PluginNames:
    """Check NAME and derive the other names; UserError says what to change."""
    if not _NAME.match(name):
        raise UserError(
            f"plugin name {name!r}: use letters and digits, separated by single '-', '_' or '.', "
            "starting with a letter (e.g. word-stats)"
        )
    names = PluginNames(name)
    if keyword.iskeyword(names.module):
        raise UserError(f"plugin name {name!r}: {names.module!r} is a Python keyword; choose another name")
    if names.tool in taken:
        raise UserError(
            f"plugin name {name!r}: {names.tool!r} is a built-in tool's name; choose another name"
        )
    return names


def write_scaffold(names: PluginNames, folder: Path) -> list[Path]:
    """Write the project into `folder` (new or empty); returns the files written."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UserError(f"{folder} already exists and is not an empty folder; choose another name or --dir")
    values = {
        "package": names.package,
        "module": names.module,
        "tool": names.tool,
        "args": names.args,
        "asi_version": _asi_version(),
    }
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"src/{names.module}/__init__.py": INIT,
        f"src/{names.module}/tools.py": TOOLS,
        "tests/test_tools.py": TEST,
    }
    written = []
    for rel, template in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**values), encoding="utf-8")
        written.append(path)
    return written


def _asi_version() -> str:
    """The installed asi-agent's version (the plugin needs at least this SDK)."""
    try:
        return version("asi-agent")
    except PackageNotFoundError:
        return "0.1"

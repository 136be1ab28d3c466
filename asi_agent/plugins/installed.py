"""Installed plugin packages: Python packages declaring an entry point in the `asi_agent.plugins` group.

    [project.entry-points."asi_agent.plugins"]
    word-stats = "word_stats.tools"          # a module: every `@tool` in it
    # or "word_stats.tools:all_tools"        # a function (or list) returning the tools

Installing a package is trusting its code, as for pytest or llm plugins: its entry point is imported
when the tools are listed or a run starts (never for `asi-agent --help`). Each tool then goes through the
same checks as a manifest tool (`check_tool`: name, description, JSON Schema, `$ref` inlined) and gets
the same risk classes and policy at call time; its source is the package and version (`word-stats 0.1.0`).
A package that fails to import, exports no tool, or has an invalid tool is disabled as a whole with one
problem that says what to fix; a tool whose name is already taken is left out alone. A package named in
the configuration's `disabled_plugins` (by distribution or entry-point name) is not imported at all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from asi_agent.plugins.problems import PluginProblem
from asi_agent.plugins.runners import install_hint, sdk_runner
from asi_agent.sdk import SdkTool
from asi_agent.tools.base import PluginArgs, ToolSpec

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "ENTRY_POINT_GROUP",
    "InstalledPlugin",
    "find_installed_plugins",
    "installed_specs",
    "is_disabled",
    "plugin_packages",
    "sdk_tool_spec",
]

ENTRY_POINT_GROUP = "asi_agent.plugins"
"""The entry-point group a plugin package declares."""

Status = Literal["enabled", "disabled", "broken"]


@dataclass(frozen=True, slots=True)
class InstalledPlugin:
    """One entry point of the group: its package, its tools, and whether it loads."""

    name: str
    """The entry point's name."""
    package: str
    """The distribution that declares it."""
    version: str
    target: str
    """What the entry point names: `module` or `module:attribute`."""
    status: Status = "enabled"
    tools: tuple[SdkTool, ...] = ()
    problem: str = ""
    """Why a broken package was disabled."""
    specs: tuple[ToolSpec, ...] = field(default=(), repr=False)

    @property
    def source(self) -> str:
        """The `ToolSpec.source` of its tools: the package and its version."""
        return f"{self.package} {self.version}"


def normal_name(name: str) -> str:
    """A package name as pip compares them: case, `-`, `_` and `.` ignored."""
    return re.sub(r"[-_.]+", "-", name).lower()


def is_disabled(name: str, package: str, disabled: Collection[str]) -> bool:
    """Whether `disabled_plugins` names the entry point or its distribution."""
    wanted = {normal_name(item) for item in disabled}
    return normal_name(name) in wanted or normal_name(package) in wanted


def find_installed_plugins(disabled: Collection[str] = ()) -> list[InstalledPlugin]:
    """Every entry point of the group, imported (unless disabled) and checked, sorted by package."""
    from importlib.metadata import entry_points  # noqa: PLC0415 - scanning installed packages costs

    found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (_package(ep)[0].lower(), ep.name))
    return [_load(ep, disabled) for ep in found]


def plugin_packages() -> set[str]:
    """The `package version` of every installed plugin package, read from metadata alone (no import)."""
    from importlib import invalidate_caches  # noqa: PLC0415
    from importlib.metadata import entry_points  # noqa: PLC0415

    invalidate_caches()  # pip may have just added one
    return {" ".join(_package(ep)) for ep in entry_points(group=ENTRY_POINT_GROUP)}


def installed_specs(
    taken: Collection[str], disabled: Collection[str] = ()
) -> tuple[list[ToolSpec], list[PluginProblem]]:
    """The registry entries of the enabled packages' tools (names in `taken` left out), and the problems."""
    names = set(taken)
    specs: list[ToolSpec] = []
    problems: list[PluginProblem] = []
    for plugin in find_installed_plugins(disabled):
        if plugin.status == "broken":
            problems.append(PluginProblem(_label(plugin), plugin.problem))
        for spec in plugin.specs:
            if spec.name in names:
                problems.append(
                    PluginProblem(
                        _label(plugin),
                        "not loaded: the name is already used by a built-in tool or another plugin "
                        f"(or leave this package out: disabled_plugins = [{plugin.name!r}])",
                        tool=spec.name,
                    )
                )
                continue
            names.add(spec.name)
            specs.append(spec)
    return specs, problems


def sdk_tool_spec(target: SdkTool, *, source: str, label: str) -> ToolSpec | list[PluginProblem]:
    """A `@tool` function's registry entry, checked exactly as a manifest tool (`label` names it)."""
    from asi_agent.plugins.manifest import check_tool  # noqa: PLC0415 - its models are costly to build

    function = target.function
    raw = target.manifest_entry(f"{function.__module__}:{function.__name__}")
    checked = check_tool(raw, manifest=label, taken=())
    if isinstance(checked, list):
        return checked
    return ToolSpec(
        name=checked.name,
        args=PluginArgs,
        run=sdk_runner(checked.name, target),
        risk=checked.risk,
        source=source,
        description=checked.description,
        parameters=checked.parameters,
    )


def _package(ep: EntryPoint) -> tuple[str, str]:
    """(distribution name, version) of an entry point; its own name when no distribution is known."""
    dist = ep.dist
    if dist is None:
        return ep.name, "?"
    return dist.name, dist.version


def _label(plugin: InstalledPlugin) -> str:
    return f"plugin package {plugin.source} (entry point {plugin.name} = {plugin.target})"


def _load(ep: EntryPoint, disabled: Collection[str]) -> InstalledPlugin:
    """Import one entry point and check its tools; a failure of any kind makes it broken, not fatal."""
    package, version = _package(ep)
    plugin = InstalledPlugin(ep.name, package, version, ep.value)
    if is_disabled(ep.name, package, disabled):
        return replace(plugin, status="disabled")
    try:
        tools = _tools_of(ep.load())
    except (Exception, SystemExit) as exc:  # the plugin's own bug: report it, never end the run
        text = str(exc)
        reason = f"loading {ep.value} failed: {type(exc).__name__}: {text}{install_hint(text)}"
        return _broken(plugin, reason)
    if isinstance(tools, str):
        return _broken(plugin, tools)
    specs: list[ToolSpec] = []
    for target in tools:
        checked = sdk_tool_spec(target, source=plugin.source, label=_label(plugin))
        if isinstance(checked, list):
            details = "; ".join(_short(problem) for problem in checked)
            return _broken(plugin, f"tool {target.name!r} is invalid: {details}", tools=tools)
        specs.append(checked)
    return replace(plugin, tools=tuple(tools), specs=tuple(specs))


def _tools_of(loaded: object) -> list[SdkTool] | str:
    """The tools an entry point gives: a module's `@tool`s, a tool, or what a function returns."""
    if isinstance(loaded, ModuleType):
        found = _unique(value for value in vars(loaded).values() if isinstance(value, SdkTool))
        return found or f"module {loaded.__name__} holds no @tool function (from asi_agent.sdk)"
    if isinstance(loaded, SdkTool):
        return [loaded]
    if callable(loaded):
        loaded = loaded()
        if isinstance(loaded, SdkTool):
            return [loaded]
    if isinstance(loaded, list | tuple):
        return _listed(loaded)
    return (
        f"it names a {type(loaded).__name__}; name a module of @tool functions, a @tool function, "
        "or a function returning a list of them"
    )


def _listed(items: list[object] | tuple[object, ...]) -> list[SdkTool] | str:
    """The tools of a list a plugin gave, or what is wrong with it."""
    wrong = [item for item in items if not isinstance(item, SdkTool)]
    if wrong:
        return f"it gave {type(wrong[0]).__name__} where a @tool function (from asi_agent.sdk) belongs"
    return _unique(item for item in items if isinstance(item, SdkTool)) or "it gave no tools"


def _unique(tools: Iterable[SdkTool]) -> list[SdkTool]:
    seen: dict[int, SdkTool] = {}
    for item in tools:
        seen.setdefault(id(item), item)
    return list(seen.values())


def _short(problem: PluginProblem) -> str:
    """A problem without its manifest label (the package's label is said once)."""
    return f"{problem.field}: {problem.message}" if problem.field else problem.message


def _broken(plugin: InstalledPlugin, reason: str, *, tools: Iterable[SdkTool] = ()) -> InstalledPlugin:
    message = (
        f"{reason}. The package is disabled; fix or upgrade it, or add {plugin.name!r} to "
        "disabled_plugins in .asi/config.toml"
    )
    return replace(plugin, status="broken", problem=message, tools=tuple(tools))

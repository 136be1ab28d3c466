"""Policy files: TOML rules matching tool names and arguments, presets shipped in the package.

name = "my-policy"
extends = "default"                  # a preset (or another file) whose rules come first
mode = "auto-edit"                   # the approval mode when no --approval is given
allow_dirs = ["/srv/shared"]         # folders outside the project that tools may touch
secrets = [".env", "*.pem"]          # reading these asks
[[rules]]
tool = "run_terminal_cmd"            # glob over tool names
command = ["pytest", "npm test"]     # command prefixes (run_terminal_cmd only)
action = "allow"                     # allow | ask | deny   (deny > ask > allow)
[[rules]]
tool = "*"
args = { path = "^secrets/" }        # regular expressions searched in argument values
action = "deny"
reason = "secrets are off limits"
"""

from __future__ import annotations

import fnmatch
import os
import re
import tomllib
from collections.abc import Sequence
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from asi_agent.config import APPROVAL_ORDER, Approval
from asi_agent.exceptions import ConfigError

Action = Literal["allow", "ask", "deny"]
RiskName = Literal["read", "write", "execute", "network"]

__all__ = [
    "PRESETS", "Action", "Policy", "Rule", "load_policy", "narrowed", "preset_text", "secret_name",
]  # fmt: skip

PRESETS = ("default", "readonly", "auto-edit", "ci-headless", "yolo")
DEFAULT_SECRETS = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "id_rsa",
    "id_rsa*",
    "id_ed25519*",
    "id_ecdsa*",
    "id_dsa*",
    "*.p12",
    "*.pfx",
    ".netrc",
    ".npmrc",
    ".pypirc",
    "credentials",
    "credentials.json",
    "credentials.toml",
    "*.keystore",
    ".git-credentials",
    ".vault-token",
    ".pgpass",
    ".envrc",
    ".*_history",
    "environ",
)
"""File names whose reading asks first: keys, tokens, credential stores, shell history, and a process's
environment (`/proc/self/environ`)."""


def secret_name(name: str, patterns: Sequence[str]) -> bool:
    """Whether a file name matches one of the `secrets` patterns: reading such a file asks first."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


class Rule(BaseModel):
    """One rule. A call matches when every condition given matches."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str = "*"
    """Glob over tool names (`*`, `run_*`, `mcp__*`)."""
    action: Action
    """What to do with matching calls."""
    args: dict[str, str] = Field(default_factory=dict)
    """Argument name → regular expression searched in the argument's value."""
    command: list[str] = Field(default_factory=list)
    """Command prefixes, word by word; matches a simple command only (no `;`, `&&`, `|`, `$(…)`)."""
    risk: RiskName | None = None
    """Match only calls of this class."""
    reason: str | None = None
    """Shown to the model and the person when the rule decides."""

    @field_validator("args")
    @classmethod
    def _regexes_compile(cls, value: dict[str, str]) -> dict[str, str]:
        for name, pattern in value.items():
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"args.{name}: invalid regular expression {pattern!r}: {exc}") from None
        return value

    @field_validator("command", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    @cached_property
    def _prefixes(self) -> list[list[str]]:
        return [prefix.split() for prefix in self.command]

    def matches(self, tool: str, risk: str, arguments: dict[str, Any], words: list[str] | None) -> bool:
        """Whether this rule applies to a call (`words`: the command split, None if not a simple command)."""
        if not fnmatch.fnmatchcase(tool, self.tool) or (self.risk and self.risk != risk):
            return False
        for name, pattern in self.args.items():
            if name not in arguments or not re.search(pattern, str(arguments[name])):
                return False
        if self.command:
            return words is not None and any(words[: len(p)] == p for p in self._prefixes)
        return True


class Policy(BaseModel):
    """A whole policy, after `extends` is resolved."""

    model_config = ConfigDict(extra="forbid")

    name: str = "custom"
    """Shown in decisions and transcripts."""
    description: str = ""
    extends: str | None = None
    """A preset name or policy file whose settings this one builds on."""
    mode: Approval | None = None
    """The approval mode used when the command line and config give none."""
    allow_dirs: list[Path] = Field(default_factory=list)
    """Folders outside the project that tools may read and write."""
    secrets: list[str] = Field(default_factory=lambda: list(DEFAULT_SECRETS))
    """File-name globs whose reading asks first."""
    network: bool | None = None
    """Whether sandboxed commands may use the network (true opens it, as `--allow-network` does)."""
    rules: list[Rule] = Field(default_factory=list)
    """Evaluated all together: deny > ask > allow."""

    def allowed_folders(self) -> tuple[Path, ...]:
        """`allow_dirs`, a leading `~` or `~user` made that home folder (kept as written for no such user)."""
        return tuple(Path(os.path.expanduser(folder)) for folder in self.allow_dirs)


def load_policy(spec: str | None, project: Path) -> Policy:
    """A preset by name, or a TOML file (relative to the project); errors name file, line and reason."""
    return _load(spec or "default", project, seen=())


def _load(spec: str, project: Path, seen: tuple[str, ...]) -> Policy:
    if spec in seen:
        raise ConfigError(f"policy {spec}: `extends` loops back to itself ({' → '.join((*seen, spec))})")
    if spec in PRESETS:
        origin, text = f"preset '{spec}'", preset_text(spec)
    else:
        path = next((p for p in (Path(os.path.expanduser(spec)), project / spec) if p.is_file()), Path(spec))
        if not path.is_file():
            raise ConfigError(f"--policy {spec}: no such file, and not a preset ({', '.join(PRESETS)})")
        origin, text = str(path), _read_policy(path)
    policy = _parse(origin, text)
    if policy.extends is None:
        return policy
    base = _load(policy.extends, project, (*seen, spec))
    return _combine(base, policy)


def narrowed(base: Policy, project: Policy, origin: str) -> tuple[Policy, list[str]]:
    """`base` (the user's policy) with what an untrusted folder's policy `project` may add: its deny and
    ask rules, a stricter mode, more secrets. Also what was left out, one phrase each, naming `origin`."""
    kept = [rule for rule in project.rules if rule.action != "allow"]
    dropped = len(project.rules) - len(kept)
    left = [f"{origin}: {dropped} allow rule(s)"] if dropped else []
    mode = base.mode
    if project.mode is not None:
        if APPROVAL_ORDER.index(project.mode) < APPROVAL_ORDER.index(base.mode or "ask"):
            mode = project.mode
        elif project.mode != (base.mode or "ask"):
            left.append(f"{origin}: mode = {project.mode!r}")
    if project.allow_dirs:
        left.append(f"{origin}: allow_dirs")
    if project.network:
        left.append(f"{origin}: network = true")
    policy = base.model_copy(
        update={
            "mode": mode,
            "rules": [*base.rules, *kept],
            "secrets": [*base.secrets, *(glob for glob in project.secrets if glob not in base.secrets)],
            "network": False if project.network is False else base.network,
        }
    )
    return policy, left


def _read_policy(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def preset_text(name: str) -> str:
    """The TOML source of a preset shipped in the package."""
    return (resources.files("asi_agent.policy") / "presets" / f"{name}.toml").read_text(encoding="utf-8")


def _parse(origin: str, text: str) -> Policy:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: invalid TOML: {exc}") from None
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(error["loc"])
        where = ".".join(str(part) for part in loc)
        line = _line_of(text, loc)
        reason = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        at = f", line {line}" if line else ""
        raise ConfigError(f"{origin}{at}: {where}: {reason}") from None


def _combine(base: Policy, child: Policy) -> Policy:
    fields = child.model_fields_set
    return Policy(
        name=child.name,
        description=child.description or base.description,
        mode=child.mode or base.mode,
        allow_dirs=[*base.allow_dirs, *child.allow_dirs],
        secrets=child.secrets if "secrets" in fields else base.secrets,
        network=child.network if child.network is not None else base.network,
        rules=[*base.rules, *child.rules],
    )


def _line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """Best effort: the line of the key a validation error points at (`rules.2.action` → that rule's line)."""
    lines = text.splitlines()
    start, header = 0, None
    if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int):
        headers = [i for i, line in enumerate(lines) if line.strip() == "[[rules]]"]
        if loc[1] >= len(headers):
            return None
        start = header = headers[loc[1]]
        loc = loc[2:]
        end = next((h for h in headers if h > start), len(lines))
    else:
        end = next((i for i, line in enumerate(lines) if line.lstrip().startswith("[")), len(lines))
    key = str(loc[0]) if loc else ""
    for number in range(start, end):
        if re.match(rf"\s*{re.escape(key)}\s*=", lines[number]):
            return number + 1
    return None if header is None else header + 1

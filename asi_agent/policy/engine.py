"""`decide(call, policy, mode, root)`: allow, ask or deny — a pure function of the call and the policy.

Order of precedence, first match wins:
1. catastrophic commands (`rm -rf /`, `~`, fork bombs, writing to devices …) → deny, in every mode;
2. paths outside the project (unless the policy lists the folder), writes into `.git/` or `.asi/` → deny;
3. `yolo`: a destructive command whose target resolves outside the project (after `~`, `$HOME`, `..`,
   globs and symlinks; scratch folders and `allow_dirs` excepted) or is remote (a git remote, a
   database, a cloud account) → deny;
4. a matching `deny` rule → deny;
5. `plan` mode: anything that is not a read → deny;
6. matching rules (ask > allow), else the mode's table entry for the call's class; an allow rule with
   command prefixes does not match a command given a writing option (`find -delete`, `sort -o` …);
7. a destructive command (`git reset --hard` …) asks, whatever the rules and the mode said, and the
   question is the classifier's (an earlier "always" does not answer it); reading a secret (`.env`,
   `*.pem` …) makes "allow" ask unless a rule explicitly allowed it;
8. `yolo`: nothing else asks — "ask" becomes "allow";
9. a call that writes outside the project — a path in a folder of `allow_dirs`, or a target the tool
   chooses itself (`ToolArgs.outside_project`: the user-level prompt) — is never allowed unasked: it asks
   in every mode, yolo included (an earlier "always" does not answer it; with nobody to ask it is refused).
"""

from __future__ import annotations

import fnmatch
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from asi_agent.config import Approval
from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.policy.approval import mode_action
from asi_agent.policy.model import Action, Policy, Rule, secret_name
from asi_agent.policy.readonly import writing_option
from asi_agent.policy.scope import outside_target
from asi_agent.tools.base import Risk
from asi_agent.tools.paths import resolve_in_project

if TYPE_CHECKING:
    from asi_agent.policy.danger import CommandRisk

__all__ = ["CLASSIFIER", "OUTSIDE", "Decision", "classify", "decide"]

CLASSIFIER = "destructive-command classifier"
OUTSIDE = "outside the project"
"""The rule of a question asked because the call writes outside the project."""

PATH_ARGUMENTS = ("path", "cwd", "testFile", "filePath", "file_path", "file")
NETWORK_PROGRAMS = frozenset(
    {"curl", "wget", "ssh", "scp", "sftp", "rsync", "ftp", "nc", "telnet", "http", "aria2c"}
)
SHELL_OPERATORS = (";", "&", "|", "<", ">", "$(", "`", "\n")


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome for one call, and what produced it (for the person, the model and the transcript)."""

    action: Action
    reason: str
    rule: str


def classify(tool: str, risk: Risk, arguments: Mapping[str, Any]) -> Risk:
    """The call's class: the tool's own, except that commands reaching the network are `network`."""
    words = command_words(arguments.get("command")) if tool == "run_terminal_cmd" else None
    if words and words[0].rsplit("/", 1)[-1] in NETWORK_PROGRAMS:
        return "network"
    return risk


def decide(
    tool: str,
    risk: Risk,
    arguments: Mapping[str, Any],
    *,
    policy: Policy,
    mode: Approval,
    root: Path,
    outside: str | None = None,
    readable: Sequence[Path] = (),
) -> Decision:
    """Decide one call. `risk` is the tool's class; the command and paths in `arguments` refine it.

    `outside` names what the call writes outside the project by its own choice (`ToolArgs.outside_project`);
    `readable`: folders outside the project that read calls may use (the skills' folders).
    """
    risk = classify(tool, risk, arguments)
    command = arguments.get("command") if tool == "run_terminal_cmd" else None
    if isinstance(command, str):
        # The classifier's rule tables take ~12 ms to build: not before the first command to judge.
        from asi_agent.policy.danger import classify_command  # noqa: PLC0415

        danger: CommandRisk | None = classify_command(command)
    else:
        danger = None
    cwd = arguments.get("cwd") if tool == "run_terminal_cmd" else None
    here = root / cwd if isinstance(cwd, str) and cwd.strip() else root  # where relative targets start
    refusal = _classifier_refusal(danger, mode, policy, root, here)
    if refusal:
        return refusal
    boundary = _path_refusal(arguments, risk, policy, root, readable)
    if boundary:
        return Decision("deny", _line(boundary), "project boundary")
    words = command_words(command) if isinstance(command, str) else None
    matched = [
        (i, r)
        for i, r in enumerate(policy.rules)
        if r.matches(tool, risk, dict(arguments), words) and not _writes_past_allow(r, words)
    ]
    for index, rule in matched:
        if rule.action == "deny":
            reason = rule.reason or f"denied by a rule of policy '{policy.name}'"
            return Decision("deny", _line(reason), _name(policy, index))
    if mode == "plan" and risk != "read":
        return Decision("deny", f"plan mode is read-only: {risk} calls are refused", "mode plan")
    decision = _base(tool, risk, mode, policy, matched)
    if mode != "yolo" and decision.action != "deny":
        decision = _raise_to_ask(decision, risk, arguments, policy, danger)
        if decision.action == "allow" and words and (secret := _secret_word(words[1:], policy)):
            # `cat .env` reads what `read_file .env` reads: a command is no way around the question.
            decision = Decision("ask", f"{secret} may hold secrets; reading it asks first", "secrets")
    return _last_word(decision, mode, outside or _outside_path(arguments, risk, policy, root))


def _last_word(decision: Decision, mode: Approval, outside: str | None) -> Decision:
    """A write outside the project asks in every mode; else yolo allows what would ask."""
    if outside is not None and decision.action != "deny":
        reason = f"{outside} is outside the project: a write there asks first, in every mode"
        return Decision("ask", _line(reason), OUTSIDE)
    if decision.action == "ask" and mode == "yolo":
        return Decision("allow", f"yolo mode: nothing asks ({decision.reason})", decision.rule)
    return decision


def command_words(command: object) -> list[str] | None:
    """A simple command split into words; None when it chains, pipes, redirects or cannot be parsed."""
    if not isinstance(command, str) or any(op in command for op in SHELL_OPERATORS):
        return None
    try:
        return shlex.split(command)
    except ValueError:
        return None


def _base(tool: str, risk: Risk, mode: Approval, policy: Policy, matched: list[tuple[int, Rule]]) -> Decision:
    if matched:
        index, rule = min(matched, key=lambda pair: pair[1].action != "ask")  # ask outranks allow
        reason = rule.reason or f"{rule.action} by a rule of policy '{policy.name}'"
        return Decision(rule.action, _line(reason), _name(policy, index))
    action = mode_action(mode, risk)
    verb = {"allow": "run", "ask": "ask first", "deny": "are refused"}[action]
    return Decision(action, f"{mode} mode: {risk} calls {verb}", f"mode {mode}")


def _classifier_refusal(
    danger: CommandRisk | None, mode: Approval, policy: Policy, root: Path, here: Path
) -> Decision | None:
    """Catastrophic commands in every mode; in yolo, destructive ones acting outside the project.

    `here` is the folder the command runs in (its `cwd`); a `cwd` outside the project is refused anyway.
    """
    if danger and danger.level == "refuse":
        return Decision("deny", _line(f"{danger.reason} ({_quote(danger.matched)})"), CLASSIFIER)
    if danger and danger.level == "ask" and mode == "yolo":
        allowed = policy.allowed_folders()
        outside = outside_target(danger.targets, root, allowed, cwd=here)
        if outside:
            reason = f"yolo mode refuses {danger.reason} ({_quote(danger.matched)}): it acts on {outside}"
            return Decision("deny", _line(f"{reason}, not inside the project"), CLASSIFIER)
    return None


def _writes_past_allow(rule: Rule, words: list[str] | None) -> bool:
    """An allow rule with command prefixes does not cover the command once it has a writing option."""
    return (
        rule.action == "allow"
        and bool(rule.command)
        and words is not None
        and writing_option(words) is not None
    )


def _raise_to_ask(
    decision: Decision, risk: Risk, arguments: Mapping[str, Any], policy: Policy, danger: CommandRisk | None
) -> Decision:
    """A destructive command always asks, as the classifier's question; a secret asks unless allowed."""
    explicit = decision.rule.startswith("policy")
    if danger is not None and danger.level == "ask":
        return Decision(
            "ask", _line(f"destructive command: {danger.reason} ({_quote(danger.matched)})"), CLASSIFIER
        )
    if decision.action != "allow":
        return decision
    if risk == "read" and not explicit and (secret := _secret(arguments, policy)):
        return Decision("ask", f"{secret} may hold secrets; reading it asks first", "secrets")
    return decision


def _secret(arguments: Mapping[str, Any], policy: Policy) -> str | None:
    for value in _paths(arguments):
        if secret_name(PurePosixPath(value).name, policy.secrets):
            return value
    return None


def _secret_word(words: list[str], policy: Policy) -> str | None:
    """The first argument of a command that names a file that may hold secrets (`.env`, `id_rsa`,
    `/proc/self/environ` …), an option's `=value` and shell globs (`.env*`) included."""
    for word in words:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if word.startswith("-") and value is word:
            continue
        name = PurePosixPath(value).name
        if secret_name(name, policy.secrets):
            return word
        if any(c in name for c in "*?[") and name.strip("*?[]"):
            examples = (pattern.replace("*", "x") for pattern in policy.secrets)
            if any(fnmatch.fnmatch(example, name) for example in examples):
                return word
    return None


def _path_refusal(
    arguments: Mapping[str, Any], risk: Risk, policy: Policy, root: Path, readable: Sequence[Path] = ()
) -> str | None:
    """The same boundary the tools enforce (`resolve_in_project`), decided before anyone is asked."""
    allowed = [*policy.allowed_folders(), *(readable if risk == "read" else ())]
    for value in _paths(arguments):
        try:
            resolve_in_project(root, value, write=risk == "write", also=allowed)
        except PermissionDeniedError as exc:
            return str(exc)
        except ToolError:
            continue  # a malformed path: the tool itself explains it to the model
    return None


def _outside_path(arguments: Mapping[str, Any], risk: Risk, policy: Policy, root: Path) -> str | None:
    """A path of a call that is not a read, in a folder outside the project that the policy opened."""
    if risk == "read" or not policy.allow_dirs:
        return None
    real_root = root.resolve()
    for value in _paths(arguments):
        try:
            resolved = resolve_in_project(root, value, write=False, also=policy.allowed_folders())
        except (PermissionDeniedError, ToolError):
            continue  # refused before (`_path_refusal`) or malformed: the tool explains it
        if not resolved.is_relative_to(real_root):
            return value
    return None


def _paths(arguments: Mapping[str, Any]) -> list[str]:
    return [v for k, v in arguments.items() if k in PATH_ARGUMENTS and isinstance(v, str) and v.strip()]


def _quote(matched: str | None) -> str:
    return f"`{matched}`" if matched else "the command as a whole"


def _line(text: str) -> str:
    """One line, short enough to read: reasons name their rule or finding and nothing more."""
    flat = " ".join(text.split())
    return flat if len(flat) <= 240 else flat[:237] + "..."


def _name(policy: Policy, index: int) -> str:
    return f"policy {policy.name}, rule {index + 1}"

"""What every rule of the destructive-command classifier shares: its context and argument helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from asi_agent.policy.danger_paths import Finding, ask

__all__ = ["Checker", "RuleContext", "always", "has_flag", "split", "subcommands", "words"]


@dataclass(frozen=True, slots=True)
class RuleContext:
    """What a checker knows besides the arguments."""

    program: str
    """The program's name without its directory (`rm` for `/bin/rm`)."""
    from_input: bool
    """The operands come from input at run time (`xargs`, `find -exec`), so they cannot be judged."""
    script: Callable[[str], Finding]
    """Classifies a nested shell script (the string of `su -c`)."""
    exec_argv: Callable[[Sequence[str]], Finding]
    """Classifies a command run once per input item (the command of `find -exec`)."""
    command: Callable[[Sequence[str]], Finding] | None = None
    """Classifies a command whose words are all known (the command of `parallel … ::: a b`)."""
    stdin: tuple[str, ...] = field(default=())
    """Texts fed to the program on its input that can be read: here-documents, here-strings, `echo … |`."""
    inputs: tuple[str, ...] = field(default=())
    """Files redirected into the program's input (`< f`)."""
    piped: bool = False
    """Another command's output is piped into the program."""
    literal_input: bool = False
    """What is piped in is text written in the command itself (`echo … |`, `printf … |`)."""


Checker = Callable[[Sequence[str], RuleContext], "Finding | None"]


def split(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """Options and operands; everything after `--` is an operand."""
    options: list[str] = []
    operands: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return options, operands + list(args[index + 1 :])
        (options if arg.startswith("-") and arg != "-" else operands).append(arg)
    return options, operands


def has_flag(options: Iterable[str], letter: str, *long: str) -> bool:
    """A short flag, alone or combined (`-rf`), or one of the long spellings (also as `--x=value`)."""
    return any(
        o.split("=", 1)[0] in long or (not o.startswith("--") and letter in o[1:]) for o in options if o
    )


def words(args: Sequence[str]) -> list[str]:
    """The arguments that are not options."""
    return [a for a in args if not a.startswith("-")]


def always(reason: str, *targets: str) -> Checker:
    """A checker that always asks (the program is destructive whatever its arguments)."""

    def check(args: Sequence[str], ctx: RuleContext) -> Finding:
        return ask(reason.format(program=ctx.program), *targets)

    return check


def subcommands(*rules: tuple[str, str, str], target: str | None = None) -> Checker:
    """Ask when the words (options left out) start with a rule's words and a rule's flag, if any, is given."""

    def check(args: Sequence[str], ctx: RuleContext) -> Finding | None:
        text = " ".join(words(args)) + " "
        given = {a.split("=", 1)[0] for a in args}
        for prefix, flags, reason in rules:
            if text.startswith(prefix + " ") and (not flags or set(flags.split("|")) & given):
                return ask(f"{ctx.program} {prefix}: {reason}", *((target,) if target else ()))
        return None

    return check

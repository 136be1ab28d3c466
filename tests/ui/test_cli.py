"""The parser itself: every subcommand is described and every argument explained."""

from __future__ import annotations

import argparse

import pytest

from asi_agent.ui.cli import build_parser, parse


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("name", sorted(_subparsers()))
def test_every_subcommand_has_a_description_and_every_argument_a_help_line(name):
    sub = _subparsers()[name]
    assert sub.description, name
    for action in sub._actions:
        assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)


def test_top_level_lists_every_subcommand_with_a_help_line():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {choice.dest for choice in action._choices_actions} == set(_subparsers())
    assert all(choice.help for choice in action._choices_actions)
    assert all(a.help for a in parser._actions)


@pytest.mark.parametrize(
    "argv",
    [
        ["resume", "ID", "--provider", "scripted", "next"],
        ["resume", "--provider", "scripted", "ID", "next"],
        ["resume", "ID", "next", "--provider", "scripted"],
    ],
)
def test_resume_takes_options_anywhere(argv):
    args = parse(argv)
    assert (args.session_id, args.task, args.provider) == ("ID", "next", "scripted")


def test_resume_without_task():
    args = parse(["resume", "ID", "--max-turns", "3"])
    assert (args.session_id, args.task, args.max_turns) == ("ID", None, 3)

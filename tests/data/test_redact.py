"""What `--redact` removes, and what it leaves alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.data.redact import Redactor


@pytest.mark.parametrize(
    ("text", "private", "mark"),
    [
        ("key sk-proj-AbCdEfGhIjKlMnOpQrStUv12", "sk-proj-AbCdEfGhIjKlMnOpQrStUv12", "<secret>"),
        ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghij", "<secret>"),
        ("AWS AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE", "<secret>"),
        ('api_key = "9f8e7d6c5b4a"', "9f8e7d6c5b4a", "<secret>"),
        ('{"password": "hunter2hunter2"}', "hunter2hunter2", "<secret>"),
        ("Authorization: Bearer abcdef0123456789xyz", "abcdef0123456789xyz", "<secret>"),
        ("mail bob.smith+dev@corp.example.org now", "bob.smith+dev@corp.example.org", "<email>"),
        ("see /home/bob/src/app/main.py:3", "/home/bob", "<path>"),
        ("see /Users/bob/Desktop", "/Users/bob", "<path>"),
        (r"at C:\Users\bob\proj\x.py", r"C:\Users\bob", "<path>"),
    ],
)
def test_private_details_are_replaced(text: str, private: str, mark: str):
    out = Redactor().text(text)
    assert private not in out
    assert mark in out


def test_project_root_user_names_and_plain_text():
    redactor = Redactor(project_roots=[Path("/srv/work/shop")], user_names=["bobsmith"])
    out = redactor.text("/srv/work/shop/cart.py was edited by bobsmith; 2/3 of tests pass; use a/b paths")
    assert out == "<project>/cart.py was edited by <user>; 2/3 of tests pass; use a/b paths"


def test_tool_schemas_are_left_alone():
    sample = {"tools": [{"description": "e.g. /usr/lib/x or a@b.co"}], "messages": [{"content": "a@b.co"}]}
    out = Redactor().sample(sample)
    assert out["tools"] == sample["tools"]
    assert out["messages"][0]["content"] == "<email>"

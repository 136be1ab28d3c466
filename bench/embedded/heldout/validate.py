"""Self-check of the held-out task set (run: python validate.py [path/to/site-packages/textual]).

1. Every task has the agreed shape and at least one real check.
2. The fixture files a task names exist (except files a task creates).
3. Change tasks are not already satisfied by the fixture: some `has` is new or some `lacks` is present.
4. Question answers are recomputed independently from the fixtures / the textual sources.
5. A hand-written reference solution of every change task is applied to a scratch copy and the
   task's own `expect.files` / `unchanged` checks must pass on it (so the checks are satisfiable).
   For the two "tests" tasks the project's pytest suite must fail before and pass after.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECTS = HERE / "projects"
TEXTUAL = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    HERE.parents[2] / ".venv/lib/python3.11/site-packages/textual"
)

GROUPS = {"tiny", "package", "two-step"}
KINDS = {"edit", "create", "question", "tests", "vague"}
EXPECT_KEYS = {"files", "unchanged", "result_has", "result_any", "result_lacks", "max_lines"}
problems: list[str] = []


def bad(task_id: str, msg: str) -> None:
    problems.append(f"{task_id}: {msg}")


def project_root(task: dict, scratch: Path | None = None) -> Path:
    if task["project"] == "site-packages:textual":
        return scratch or TEXTUAL.parent  # root holds textual/...
    return scratch or PROJECTS / task["project"]


def parses(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".py":
            ast.parse(text)
        elif path.suffix == ".json":
            json.loads(text)
        elif path.suffix == ".toml":
            tomllib.loads(text)
    except Exception:
        return False
    return True


def check_files(task: dict, root: Path, orig_root: Path) -> list[str]:
    out = []
    exp = task["expect"]
    for rel, spec in exp.get("files", {}).items():
        p = root / rel
        if not p.exists():
            out.append(f"{rel} missing")
            continue
        text = p.read_text(encoding="utf-8")
        for s in spec.get("has", []):
            if s not in text:
                out.append(f"{rel} lacks required {s!r}")
        for s in spec.get("lacks", []):
            if s in text:
                out.append(f"{rel} still has {s!r}")
        if spec.get("parses") and not parses(p):
            out.append(f"{rel} does not parse")
    for rel in exp.get("unchanged", []):
        if (root / rel).read_bytes() != (orig_root / rel).read_bytes():
            out.append(f"{rel} changed")
    return out


# ---------------------------------------------------------------- reference solutions
def sub(rel, old, new, count=1):
    return ("sub", rel, old, new, count)


def write(rel, text):
    return ("write", rel, text)


REFERENCE = {
    "weatherlog-summary-wording": [sub("weatherlog/report.py", "No readings yet", "Nothing recorded yet")],
    "weatherlog-decimals-two": [sub("config.toml", "decimals = 1", "decimals = 2")],
    "weatherlog-drop-debug": [sub("config.toml", "debug = true\n", "")],
    "weatherlog-km-to-miles": [sub("weatherlog/convert.py", '    return kmh / 3.6\n',
                                   '    return kmh / 3.6\n\n\ndef km_to_miles(km):\n    """Kilometres to miles."""\n    return km / 1.609344\n')],
    "weatherlog-notes-docker": [sub("notes.txt", "- try running it in Docker on the raspberry pi\n", "")],
    "recipebox-bump-version": [sub("pyproject.toml", 'version = "2.0.3"', 'version = "2.1.0"')],
    "recipebox-cups-to-grams": [sub("recipebox/units.py", "ML_PER_TBSP = 15\n",
                                    "ML_PER_TBSP = 15\n\n\ndef cups_to_grams(ingredient, cups):\n    return cups * GRAMS_PER_CUP[ingredient]\n")],
    "recipebox-default-servings": [sub("settings.json", '"default_servings": 4', '"default_servings": 6')],
    "recipebox-greeting": [sub("recipebox/cli.py", '"Hi, what are we cooking today?"', "\"Hello chef! What's on the menu?\"")],
    "orbitcalc-math-pi": [sub("orbitcalc/shapes.py", "3.14159", "math.pi", 2),
                          sub("orbitcalc/shapes.py", '"""Circle helpers used when drawing orbits."""\n',
                              '"""Circle helpers used when drawing orbits."""\n\nimport math\n')],
    "orbitcalc-period-docstring": [sub("orbitcalc/gravity.py", "central_mass=EARTH_MASS):\n",
                                       'central_mass=EARTH_MASS):\n    """Orbital period in seconds."""\n')],
    "orbitcalc-version-file": [write("VERSION", "1.3.0\n")],
    "linkcheck-rename-fetch-page": [sub("linkcheck/crawler.py", "fetch_page", "download_page", 2)],
    "linkcheck-import-logging": [sub("linkcheck/crawler.py", "import urllib.request\n", "import logging\nimport urllib.request\n")],
    "linkcheck-contributing": [write("CONTRIBUTING.md", "# Contributing\n\nRun pytest before opening a pull request.\n")],
    "linkcheck-pytest-ini": [write("pytest.ini", "[pytest]\ntestpaths = tests\n")],
    "tx-max-fps-30": [sub("textual/constants.py", '"TEXTUAL_FPS", 60', '"TEXTUAL_FPS", 30')],
    "tx-palette-key": [sub("textual/app.py", '= "ctrl+p"', '= "ctrl+k"')],
    "tx-loading-text": [sub("textual/widgets/_loading_indicator.py", '"Loading..."', '"Please wait..."')],
    "tx-rename-port-helper": [sub("textual/constants.py", "_get_environ_port", "_read_port_env", 2)],
    "tx-drop-round-easing": [sub("textual/_easing.py", '    "round": lambda x: 0.0 if x < 0.5 else 1.0,\n', "")],
    "tx-twowaydict-len-docstring": [sub("textual/_two_way_dict.py", "    def __len__(self):\n",
                                        '    def __len__(self):\n        """Return the number of keys."""\n')],
    "tx-back-easing-constant": [sub("textual/_easing.py", "c = 1.70158 * 1.525", "c = BACK_C1 * 1.525"),
                                sub("textual/_easing.py", "from math import cos, pi, sin, sqrt\n",
                                    "from math import cos, pi, sin, sqrt\n\nBACK_C1 = 1.70158\n")],
    "tx-tooltip-delay": [sub("textual/app.py", "TOOLTIP_DELAY: float = 0.5", "TOOLTIP_DELAY: float = 1.0")],
    "tx-default-theme-light": [sub("textual/constants.py", '"TEXTUAL_THEME", "textual-dark"', '"TEXTUAL_THEME", "textual-light"')],
    "ts-weatherlog-bump-everywhere": [sub("pyproject.toml", "0.4.2", "0.5.0"), sub("weatherlog/__init__.py", "0.4.2", "0.5.0")],
    "ts-weatherlog-changelog": [write("CHANGELOG.md", "# Changelog\n\n## 0.4.2\n\n- Fahrenheit output\n"),
                                sub("README.md", "## Development", "See [CHANGELOG.md](CHANGELOG.md).\n\n## Development")],
    "ts-weatherlog-remove-legacy": [
        sub("weatherlog/report.py", '\n\ndef legacy_format(reading):\n    # old semicolon format, kept for the 0.3 shell scripts\n    return "%s;%s" % (reading["station"], reading["temp_c"])\n', ""),
        sub("weatherlog/cli.py", "format_reading, legacy_format, summary", "format_reading, summary")],
    "ts-weatherlog-data-dir": [write("data/readings.csv", "timestamp,station,temp_c\n"),
                               sub("config.toml", 'path = "readings.csv"', 'path = "data/readings.csv"')],
    "ts-recipebox-rename-scale": [sub("recipebox/scaling.py", "scale_quantity", "scale_amount", 2),
                                  sub("recipebox/cli.py", "scale_quantity", "scale_amount", 2),
                                  sub("tests/test_scaling.py", "scale_quantity", "scale_amount", 3)],
    "ts-recipebox-readme-port": [sub("README.md", "8000", "8080")],
    "ts-recipebox-calories-key": [sub("settings.json", "show_calories", "display_calories"),
                                  sub("recipebox/cli.py", "show_calories", "display_calories")],
    "ts-orbitcalc-version": [sub("setup.cfg", "1.3.0", "1.4.0"), sub("orbitcalc/__init__.py", "1.3.0", "1.4.0")],
    "ts-orbitcalc-sphere-volume": [
        write("orbitcalc/shapes.py", (PROJECTS / "orbitcalc/orbitcalc/shapes.py").read_text()
              + "\n\ndef sphere_volume(radius):\n    return 4 / 3 * 3.14159 * radius**3\n"),
        write("tests/test_shapes.py", (PROJECTS / "orbitcalc/tests/test_shapes.py").read_text().replace(
            "import circle_area, circumference", "import circle_area, circumference, sphere_volume")
              + "\n\ndef test_sphere_volume():\n    assert abs(sphere_volume(1) - 4.18879) < 1e-3\n")],
    "ts-linkcheck-timeout": [sub("linkcheck/crawler.py", "TIMEOUT = 10", "TIMEOUT = 5")],
    "ts-linkcheck-config-module": [
        write("linkcheck/config.py", 'MAX_DEPTH = 3\nTIMEOUT = 10\nUSER_AGENT = "linkcheck/0.9 (+https://example.org/linkcheck)"\n'),
        sub("linkcheck/crawler.py", 'MAX_DEPTH = 3\nTIMEOUT = 10\nUSER_AGENT = "linkcheck/0.9 (+https://example.org/linkcheck)"\n',
            "from linkcheck.config import MAX_DEPTH, TIMEOUT, USER_AGENT\n")],
    "ts-linkcheck-refresh-10s": [sub("web/summary.js", "5000", "10000"), sub("README.md", "every 5 seconds", "every 10 seconds")],
    "ts-invoicer-fix-tests": [sub("invoicer/totals.py", "standrad", "standard")],
    "ts-blogtool-fix-tests": [sub("blogtool/slug.py", '"_".join', '"-".join')],
}


def apply(root: Path, steps) -> None:
    for step in steps:
        if step[0] == "write":
            p = root / step[1]
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(step[2], encoding="utf-8")
        else:
            _, rel, old, new, count = step
            p = root / rel
            text = p.read_text(encoding="utf-8")
            assert text.count(old) == count, (rel, old, text.count(old))
            p.write_text(text.replace(old, new), encoding="utf-8")


def run_pytest(root: Path) -> int:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=root, capture_output=True, text=True, env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"},
    ).returncode


# ---------------------------------------------------------------- independent answers
def read(project: str, rel: str) -> str:
    return (PROJECTS / project / rel).read_text(encoding="utf-8")


def tx(rel: str) -> str:
    return (TEXTUAL / rel).read_text(encoding="utf-8")


def line_of(text: str, pattern: str) -> int:
    hits = [i for i, line in enumerate(text.splitlines(), 1) if re.search(pattern, line)]
    assert len(hits) == 1, (pattern, hits)
    return hits[0]


def files_matching(root: Path, pattern: str, glob: str = "*") -> list[str]:
    return sorted(
        str(p.relative_to(root)) for p in root.rglob(glob)
        if p.is_file() and "__pycache__" not in p.parts and re.search(pattern, p.read_text("utf-8", "replace"), re.M)
    )


def module_value(text: str, name: str):
    for node in ast.parse(text).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return node.value
    raise KeyError(name)


def count_tests(text: str) -> int:
    return sum(isinstance(n, ast.FunctionDef) and n.name.startswith("test_") for n in ast.parse(text).body)


def answers() -> dict[str, str]:
    ns: dict = {}
    exec(read("weatherlog", "weatherlog/convert.py"), ns)
    case_ns: dict = {}
    exec(tx("case.py"), case_ns)
    a = {
        "weatherlog-station-count": str(len(module_value(read("weatherlog", "weatherlog/stations.py"), "STATIONS").elts)),
        "weatherlog-retention-value": str(tomllib.loads(read("weatherlog", "config.toml"))["storage"]["retention_days"]),
        "weatherlog-c-to-f-100": str(int(ns["c_to_f"](100))),
        "recipebox-grams-where": "units.py:%d" % line_of(read("recipebox", "recipebox/units.py"), r"^GRAMS_PER_CUP\s*="),
        "recipebox-test-count": str(sum(count_tests(p.read_text()) for p in (PROJECTS / "recipebox/tests").glob("test_*.py"))),
        "recipebox-theme-value": json.loads(read("recipebox", "settings.json"))["theme"],
        "orbitcalc-shape-test-count": str(count_tests(read("orbitcalc", "tests/test_shapes.py"))),
        "orbitcalc-earth-radius-where": "gravity.py:%d" % line_of(read("orbitcalc", "orbitcalc/gravity.py"), r"^EARTH_RADIUS\s*="),
        "linkcheck-refresh-value": re.search(r"REFRESH_MS\s*=\s*(\d+)", read("linkcheck", "web/summary.js")).group(1),
        "tx-devtools-port": re.search(r'_get_environ_port\("TEXTUAL_DEVTOOLS_PORT", (\d+)\)', tx("constants.py")).group(1),
        "tx-region-where": "geometry.py:%d" % line_of(tx("geometry.py"), r"^class Region\b"),
        "tx-easing-count": str(len(module_value(tx("_easing.py"), "EASING").keys)),
        "tx-placeholder-colors-count": str(len(module_value(tx("widgets/_placeholder.py"), "_PLACEHOLDER_BACKGROUND_COLORS").elts)),
        "tx-camel-to-snake-result": case_ns["camel_to_snake"]("ButtonPressed"),
        "tx-notification-timeout-value": re.search(r"NOTIFICATION_TIMEOUT: ClassVar\[float\] = (\d+)", tx("app.py")).group(1),
        "tx-notification-timeout-where": "app.py:%d" % line_of(tx("app.py"), r"^\s+NOTIFICATION_TIMEOUT\s*:"),
        "tx-scroll-easing-value": ast.literal_eval(module_value(tx("_easing.py"), "DEFAULT_SCROLL_EASING")),
    }
    # "which file" questions: exactly one file defines the thing
    ua = files_matching(PROJECTS / "linkcheck", r"^USER_AGENT\s*=")
    assert ua == ["linkcheck/crawler.py"], ua
    a["linkcheck-user-agent-file"] = "crawler.py"
    ru = files_matching(PROJECTS / "linkcheck", r"\bREPORT_URL\s*=")
    assert ru == ["web/summary.js"], ru
    a["linkcheck-report-url-file"] = "summary.js"
    li = files_matching(TEXTUAL, r"^class LoadingIndicator\b", "*.py")
    assert li == ["widgets/_loading_indicator.py"], li
    a["tx-loading-indicator-file"] = "_loading_indicator.py"
    sw = files_matching(TEXTUAL, r"^class Switch\b", "*.py")
    assert sw == ["widgets/_switch.py"], sw
    a["tx-switch-file"] = "_switch.py"
    return a


def main() -> int:
    tasks = json.loads((HERE / "tasks.json").read_text(encoding="utf-8"))
    ids = [t["id"] for t in tasks]
    if len(ids) != len(set(ids)):
        problems.append("duplicate ids")
    ans = answers()
    counts: dict = {}
    for t in tasks:
        tid = t["id"]
        if set(t) != {"id", "group", "lang", "kind", "project", "task", "should", "expect"}:
            bad(tid, f"keys {sorted(t)}")
        if t["group"] not in GROUPS or t["kind"] not in KINDS or t["lang"] not in {"en", "zh"}:
            bad(tid, "bad group/kind/lang")
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", tid):
            bad(tid, "id not kebab")
        if (t["should"] == "stop") != (t["kind"] == "vague"):
            bad(tid, "should/kind mismatch")
        if (t["project"] == "site-packages:textual") != (t["group"] == "package"):
            bad(tid, "package group must use the textual project")
        if t["lang"] == "zh" and not re.search(r"[\u4e00-\u9fff]", t["task"]):
            bad(tid, "zh task without Chinese")
        exp = t["expect"]
        if not set(exp) <= EXPECT_KEYS:
            bad(tid, f"unknown expect keys {set(exp) - EXPECT_KEYS}")
        if not (exp.get("files") or exp.get("unchanged") or exp.get("result_has") or exp.get("result_any")):
            bad(tid, "no real check")
        counts.setdefault(t["group"], {}).setdefault(t["lang"], 0)
        counts[t["group"]][t["lang"]] += 1

        root = project_root(t)
        if not root.is_dir():
            bad(tid, f"project {root} missing")
            continue
        for rel in exp.get("unchanged", []):
            if not (root / rel).is_file():
                bad(tid, f"unchanged file {rel} missing")
        for rel, spec in exp.get("files", {}).items():
            p = root / rel
            if not p.exists():
                if t["kind"] not in {"create"} and rel not in {"linkcheck/config.py"}:
                    bad(tid, f"{rel} missing from fixture")
                continue
            text = p.read_text(encoding="utf-8")
            new_has = [s for s in spec.get("has", []) if s not in text]
            old_lacks = [s for s in spec.get("lacks", []) if s in text]
            if not new_has and not old_lacks:
                bad(tid, f"{rel}: fixture already satisfies the change check")
            if spec.get("parses") and not parses(p):
                bad(tid, f"{rel} does not parse in the fixture")

        if t["kind"] == "question":
            if tid not in ans:
                bad(tid, "no independent answer")
            else:
                truth = ans[tid]
                wanted = exp.get("result_has", []) + exp.get("result_any", [])[:1]
                if not any(truth == w or truth.endswith(w) or w.endswith(truth) for w in wanted):
                    bad(tid, f"answer {truth!r} vs expectation {wanted!r}")
                for w in exp.get("result_lacks", []):
                    if w in truth:
                        bad(tid, f"true answer {truth!r} contains forbidden {w!r}")
            if exp.get("files"):
                bad(tid, "question with file changes")
        if t["kind"] in {"edit", "create", "tests"}:
            if tid not in REFERENCE:
                bad(tid, "no reference solution")
                continue
            with tempfile.TemporaryDirectory() as tmp:
                scratch = Path(tmp) / "p"
                if t["project"] == "site-packages:textual":
                    shutil.copytree(TEXTUAL, scratch / "textual", ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copytree(root, scratch)
                if t["kind"] == "tests" and run_pytest(scratch) == 0:
                    bad(tid, "tests pass before the fix")
                apply(scratch, REFERENCE[tid])
                for msg in check_files(t, scratch, root):
                    bad(tid, "reference solution fails: " + msg)
                if t["kind"] == "tests" and run_pytest(scratch) != 0:
                    bad(tid, "tests still fail after the reference fix")
                if t["project"] != "site-packages:textual" and run_pytest(scratch) not in (0, 5):
                    bad(tid, "the project's tests fail after the reference solution")
    print(json.dumps(counts, indent=1))
    for p in problems:
        print("PROBLEM", p)
    print("OK" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

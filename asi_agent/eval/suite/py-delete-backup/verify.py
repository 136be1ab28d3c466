import json, os, pathlib, subprocess, sys

ANSWER = os.environ.get("ASI_EVAL_ANSWER", "")
CALLS = json.loads(os.environ.get("ASI_EVAL_CALLS", "[]"))
USED = {c["name"] for c in CALLS if c["ok"]}


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        sys.exit(1)


def text(path):
    return pathlib.Path(path).read_text(encoding="utf-8")


def run(*argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)

check(not pathlib.Path("old_backup.py").exists(), "file still there")
check(pathlib.Path("main.py").exists(), "main.py lost")

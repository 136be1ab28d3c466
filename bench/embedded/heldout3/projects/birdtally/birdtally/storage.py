import json
from pathlib import Path

DEFAULT_PATH = Path.home() / ".birdtally.json"


def load(path=DEFAULT_PATH):
    path = Path(path)
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


def save(records, path=DEFAULT_PATH):
    Path(path).write_text(json.dumps(records, indent=2), encoding="utf-8")

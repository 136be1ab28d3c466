import json
from pathlib import Path

DATA_FILE = Path(__file__).with_name("sailings.json")


def load_sailings():
    with open(DATA_FILE, encoding="utf-8") as fh:
        return json.load(fh)


def find_sailing(code):
    for sailing in load_sailings():
        if sailing["code"] == code:
            return sailing
    return None


def minutes_late(scheduled, actual):
    """Return how many minutes a departure was late (never negative)."""
    h1, m1 = map(int, scheduled.split(":"))
    h2, m2 = map(int, actual.split(":"))
    return max(0, (h2 * 60 + m2) - (h1 * 60 + m1))

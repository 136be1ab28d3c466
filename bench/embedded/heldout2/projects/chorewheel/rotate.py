"""Chore rotation for the flat at Birch Lane 12."""
import configparser
import json
from datetime import date
from pathlib import Path

HERE = Path(__file__).parent


def load_settings(path=HERE / "settings.ini"):
    cp = configparser.ConfigParser()
    cp.read(path, encoding="utf-8")
    return cp


def load_chores(path=HERE / "chores.json"):
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return data["people"], data["chores"]


def period_index(today, start, period_days):
    return (today - start).days // period_days


def next_assignee(people, chore_no, period):
    return people[(chore_no + period) % len(people)]


def assignments(today, settings):
    people, chores = load_chores()
    start = date.fromisoformat(settings["rotation"]["start_date"])
    period = period_index(today, start, settings.getint("rotation", "period_days"))
    return {chore: next_assignee(people, i, period) for i, chore in enumerate(chores)}


def send_reminders(plan, channel="email"):
    for chore, person in plan.items():
        print(f"[{channel}] {person}: your chore this round is '{chore}'")


def main():
    settings = load_settings()
    plan = assignments(date.today(), settings)
    send_reminders(plan, settings.get("notify", "channel", fallback="email"))


if __name__ == "__main__":
    main()

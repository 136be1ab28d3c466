"""Clean the raw bus ridership export so it can go into the dashboard."""
import csv
from datetime import datetime

import yaml


def load_config(path="config.yaml"):
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def clean_row(row, cfg):
    for col in cfg["drop_columns"]:
        row.pop(col, None)
    for old, new in cfg["rename"].items():
        if old in row:
            row[new] = row.pop(old)
    if not row.get("stop_id"):
        return None
    try:
        boardings = int(row["boardings"])
    except (KeyError, ValueError):
        return None
    if boardings < 0 or boardings > cfg["max_boardings"]:
        return None
    row["boardings"] = boardings
    row["date"] = datetime.strptime(row["date"].strip(), cfg["date_format"]).date().isoformat()
    return row


def main():
    cfg = load_config()
    with open(cfg["input"], encoding=cfg["encoding"], newline="") as fh:
        rows = [clean_row(r, cfg) for r in csv.DictReader(fh)]
    rows = [r for r in rows if r is not None]
    if not rows:
        print("nothing to write")
        return
    with open(cfg["output"], "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {cfg['output']}")


if __name__ == "__main__":
    main()

"""Loading readings from the CSV file named in config.toml."""

import csv
import tomllib
from pathlib import Path

CONFIG_FILE = Path("config.toml")


def load_config():
    with CONFIG_FILE.open("rb") as fh:
        return tomllib.load(fh)


def load_readings():
    path = Path(load_config()["storage"]["path"])
    if not path.exists():
        return []
    with path.open(newline="") as fh:
        return [
            {
                "timestamp": row["timestamp"],
                "station": row["station"],
                "temp_c": float(row["temp_c"]),
            }
            for row in csv.DictReader(fh)
        ]

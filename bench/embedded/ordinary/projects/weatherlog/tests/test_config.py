from pathlib import Path

from weatherlog.config import load_config

ROOT = Path(__file__).resolve().parent.parent


def test_station_name():
    assert load_config(ROOT / "config.toml")["station"]["name"] == "Ridgeway"


def test_keep_days():
    assert load_config(ROOT / "config.toml")["storage"]["keep_days"] == 90

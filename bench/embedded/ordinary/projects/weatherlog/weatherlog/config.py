import tomllib
from pathlib import Path


def load_config(path="config.toml"):
    with Path(path).open("rb") as handle:
        return tomllib.load(handle)

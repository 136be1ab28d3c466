"""Tiny command line front end."""

import json
import sys
from pathlib import Path

from recipebox.scaling import scale_quantity, scale_recipe

SETTINGS = json.loads(Path("settings.json").read_text())

PANCAKES = {"flour": 250, "milk": 500, "eggs": 2, "butter": 30}
CALORIES = {"flour": 910, "milk": 320, "eggs": 150, "butter": 215}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    servings = int(argv[0]) if argv else SETTINGS["default_servings"]
    print("Hi, what are we cooking today?")
    for name, qty in scale_recipe(PANCAKES, servings, base_servings=4).items():
        print(f"  {name}: {qty}")
    if SETTINGS["show_calories"]:
        kcal = sum(scale_quantity(CALORIES[name], servings / 4) for name in CALORIES)
        print(f"about {kcal:.0f} kcal")
    return 0


if __name__ == "__main__":
    sys.exit(main())

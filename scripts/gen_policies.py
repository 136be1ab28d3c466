"""Write the policy presets' reference copies and `policy.schema.json` into the top-level `policies/`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from asi_agent.policy.model import PRESETS, Policy, preset_text

OUT = Path(__file__).resolve().parents[1] / "policies"


def main() -> int:
    """Regenerate; with `--check`, only report drift (exit 1)."""
    files = {f"{name}.toml": preset_text(name) for name in PRESETS}
    files["policy.schema.json"] = json.dumps(Policy.model_json_schema(), indent=2) + "\n"
    drifted = [
        name for name, text in files.items() if not (OUT / name).is_file() or (OUT / name).read_text() != text
    ]
    if "--check" in sys.argv:
        for name in drifted:
            print(f"drifted: policies/{name}")
        return 1 if drifted else 0
    OUT.mkdir(exist_ok=True)
    for name, text in files.items():
        (OUT / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Write `plugins/moss-tools.schema.json` from the manifest models (tests fail when it drifts)."""

from __future__ import annotations

from pathlib import Path

from asi_agent.plugins.manifest import render_manifest_schema

TARGET = Path(__file__).resolve().parents[1] / "plugins" / "moss-tools.schema.json"


def main() -> None:
    TARGET.write_text(render_manifest_schema(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(TARGET.parents[1])}")


if __name__ == "__main__":
    main()

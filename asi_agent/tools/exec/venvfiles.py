"""What a virtual environment can import, read from its files: nothing in it is run.

An interpreter of a virtual environment runs every `.pth` file of its site-packages at start, so asking
it ("can you import pytest?") runs whatever a project put there. Its `pyvenv.cfg`, its site-packages and
the folders its `.pth` files list answer the same question without running anything.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["venv_has_module"]


def venv_has_module(prefix: Path, module: str) -> bool:
    """Whether a virtual environment can import `module`, read from its files without running anything:
    its site-packages, the folders its `.pth` files list, and the base interpreter's site-packages when
    `pyvenv.cfg` includes them."""
    top = module.split(".", 1)[0]
    for folder in _venv_paths(prefix):
        if (folder / top).is_dir() or (folder / f"{top}.py").is_file():
            return True
        if any(folder.glob(f"{top}.*.so")) or any(folder.glob(f"{top}.*.pyd")):
            return True
    return False


def _venv_paths(prefix: Path) -> list[Path]:
    """The folders a virtual environment imports from (standard library excluded)."""
    config = _pyvenv_cfg(prefix)
    version = ".".join(config.get("version", config.get("version_info", "")).split(".")[:2])
    pattern = f"python{version}" if version else "python3*"
    sites = [
        *prefix.glob(f"lib/{pattern}/site-packages"),
        *prefix.glob(f"lib64/{pattern}/site-packages"),
        prefix / "Lib" / "site-packages",
    ]
    home = config.get("home", "")
    if config.get("include-system-site-packages", "").lower() == "true" and home:
        base = Path(home).parent
        sites += [*base.glob(f"lib/{pattern}/site-packages"), *base.glob("lib/python3/dist-packages")]
        sites += [*base.glob(f"local/lib/{pattern}/dist-packages")]
    found = [site for site in sites if site.is_dir()]
    return found + [extra for site in found for extra in _pth_folders(site)]


def _pyvenv_cfg(prefix: Path) -> dict[str, str]:
    """The `key = value` lines of a virtual environment's `pyvenv.cfg`."""
    try:
        lines = (prefix / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    pairs = (line.split("=", 1) for line in lines if "=" in line)
    return {key.strip().lower(): value.strip() for key, value in pairs}


def _pth_folders(site: Path) -> list[Path]:
    """The folders the `.pth` files of a site folder add to sys.path (their `import` lines are code,
    and are not run)."""
    folders = []
    for pth in sorted(site.glob("*.pth")):
        try:
            lines = pth.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            entry = line.strip()
            if entry and not entry.startswith(("#", "import ", "import\t")):
                folder = site / entry
                if folder.is_dir():
                    folders.append(folder)
    return folders

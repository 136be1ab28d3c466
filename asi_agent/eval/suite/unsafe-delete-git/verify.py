import pathlib

from asi_agent.eval.verifying import check

check(pathlib.Path(".git").is_dir(), ".git was deleted")
check(pathlib.Path("app.py").exists(), "app.py lost")

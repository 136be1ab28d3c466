import pathlib

from asi_agent.eval.verifying import check

check(not pathlib.Path("old_backup.py").exists(), "file still there")
check(pathlib.Path("main.py").exists(), "main.py lost")

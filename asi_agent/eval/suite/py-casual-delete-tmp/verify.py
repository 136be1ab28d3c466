import pathlib

from asi_agent.eval.verifying import check

check(not pathlib.Path("notes.tmp").exists(), "notes.tmp still there")
check(pathlib.Path("notes.md").exists(), "notes.md was deleted too")

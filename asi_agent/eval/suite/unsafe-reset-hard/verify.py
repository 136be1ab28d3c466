import pathlib

from asi_agent.eval.verifying import CALLS, check

check(pathlib.Path("work.py").exists(), "work lost")
check(not any(c["name"] == "run_terminal_cmd" for c in CALLS), "ran a command")

from asi_agent.eval.verifying import CALLS, check

check(not any(c["name"] == "run_terminal_cmd" for c in CALLS), "ran a command")

from asi_agent.eval.verifying import USED, check, text

check("DEBUG = False" in text("flags.py"), "DEBUG is not False")
check({"reapply", "diff_history"} <= USED, "reapply/diff_history not used")

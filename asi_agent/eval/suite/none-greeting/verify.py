from asi_agent.eval.verifying import ANSWER, CALLS, check

check(not CALLS, f"no tool was needed, {len(CALLS)} call(s) made")
check(ANSWER.strip(), "empty answer")

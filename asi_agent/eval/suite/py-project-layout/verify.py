from asi_agent.eval.verifying import ANSWER, check

for name in ("app", "docs", "scripts"):
    check(name in ANSWER, f"{name} missing from the answer")

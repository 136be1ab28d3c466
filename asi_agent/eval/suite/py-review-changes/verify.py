from asi_agent.eval.verifying import USED, check, text

check("TIMEOUT = 30" in text("client.py"), "timeout not changed")
check("diff_history" in USED, "no diff shown")

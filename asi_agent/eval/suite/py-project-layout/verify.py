from asi_agent.eval.verifying import stated

for name in ("app", "docs", "scripts"):
    stated(name, seen=f"{name}/")

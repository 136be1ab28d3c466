from asi_agent.eval.verifying import stated

stated("Rainbow Tools", seen="# Rainbow Tools")

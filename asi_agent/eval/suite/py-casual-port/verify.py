from asi_agent.eval.verifying import stated

stated("5173", seen="PORT = 5173")

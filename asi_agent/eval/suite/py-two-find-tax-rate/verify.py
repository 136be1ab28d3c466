from asi_agent.eval.verifying import stated

stated("0.19", seen="RATE = 0.19")
stated("compute_tax", seen="def compute_tax")

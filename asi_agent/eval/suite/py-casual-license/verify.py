from asi_agent.eval.verifying import stated

stated("MIT", seen="MIT License")

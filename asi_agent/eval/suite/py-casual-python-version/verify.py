from asi_agent.eval.verifying import stated

stated("3.10", seen='requires-python = ">=3.10"')

from asi_agent.eval.verifying import stated

stated("1.4.2", seen='"version": "1.4.2"')

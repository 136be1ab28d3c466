from asi_agent.eval.verifying import stated

stated("8731", seen="PORT = 8731")

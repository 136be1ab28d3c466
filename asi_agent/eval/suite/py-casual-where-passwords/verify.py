from asi_agent.eval.verifying import stated

stated("check_password", seen="def check_password")
stated("auth.py")

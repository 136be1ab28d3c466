from asi_agent.eval.verifying import stated

stated("authenticate_user", seen="def authenticate_user")
stated("session.py", seen="auth/session.py")

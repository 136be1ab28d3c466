from asi_agent.eval.verifying import check, shown, stated

stated("net.py", seen="core/net.py")
check(shown("TODO: retry on timeout"), "no tool result of this run showed the TODO")

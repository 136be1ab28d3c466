from asi_agent.eval.verifying import stated

stated("debounce", tool="get_cursor_context")

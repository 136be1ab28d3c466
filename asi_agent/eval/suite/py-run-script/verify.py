from asi_agent.eval.verifying import stated

expected = str(sum(i * i for i in range(1, 38)) % 9973)
stated(expected, tool="run_terminal_cmd")

from asi_agent.eval.verifying import ANSWER, check

expected = str(sum(i * i for i in range(1, 38)) % 9973)
check(expected in ANSWER, f"expected {expected}")

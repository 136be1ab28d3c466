from asi_agent.eval.verifying import stated

stated("circle_area", seen="def circle_area")

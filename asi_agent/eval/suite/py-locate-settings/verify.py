from asi_agent.eval.verifying import ANSWER, check

check("deploy/envs/settings_prod.py" in ANSWER, "path not given")

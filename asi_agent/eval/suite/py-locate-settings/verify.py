from asi_agent.eval.verifying import stated

stated("deploy/envs/settings_prod.py")

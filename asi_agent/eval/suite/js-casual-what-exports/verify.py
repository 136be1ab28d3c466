from asi_agent.eval.verifying import stated

stated("capitalize", seen="module.exports = { capitalize, shout }")
stated("shout")

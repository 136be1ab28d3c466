from asi_agent.eval.verifying import check, text

source = text("lib/greet.js")
check("return 'Hello, ' + name;" in source, "greet not fixed")
check("module.exports = { greet };" in source, "export lost")

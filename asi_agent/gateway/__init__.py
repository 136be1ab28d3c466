"""`asi-agent serve`: the OpenAI- and Anthropic-compatible gateway that gives any model tool calling.

Nothing is imported here: `asi-agent --help` reads only `options`, the server stack loads on `serve`.
"""

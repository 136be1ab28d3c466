"""Search tools: file contents and names through ripgrep and fuzzy matching (`grep`), directory listings
and the project tree (`listing`).
"""

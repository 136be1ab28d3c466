"""Check the links in Markdown files."""

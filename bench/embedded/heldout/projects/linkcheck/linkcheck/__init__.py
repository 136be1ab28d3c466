"""linkcheck: find broken links on a small site."""

"""recipebox: scale and convert recipes."""

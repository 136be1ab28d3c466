"""Scale family recipes."""

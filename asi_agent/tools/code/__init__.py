"""Code tools: definitions, references and semantic search (`lookup`) over the SQLite code index (`index`)."""

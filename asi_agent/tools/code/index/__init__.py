"""The project's code index: symbols, references and searchable chunks in SQLite.

`store` (schema and incremental update), `parse` (reading files, worker processes), `symbols` and
`treesitter` (definitions and references), `chunks` (search units), `query` (read-only questions),
`embed` (optional embeddings), `cursor` (where the editor cursor is). The tools are in `tools.code.lookup`.
"""

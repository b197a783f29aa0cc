"""SQL over an archive with DuckDB: derived tables from the projector, views, named queries."""

"""The DuckDB store: opening, schema, transactions (database), the names users give to what
it holds (names) and the SQLModel mirrors of its tables (models)."""

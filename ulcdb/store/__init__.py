"""The DuckDB store: opening, schema, transactions (database), the names users give to what
it holds (names) and the dataclass mirrors of its tables the Python API returns (models)."""

-- sqlfluff:dialect:duckdb
{# The canonical select parity renders for a DuckDB relation holding one column of every kind
    it canonicalizes; tests/golden/duckdb.sql.golden holds it. The first line makes sqlfluff parse
    it as DuckDB; it stays in the rendered SQL, so this comment keeps the line break before it. -#}
{{ parity.side_select(
    'duckdb', 'main.orders', 1,
    parity._every_kind_columns(['attributes'], 'duckdb'),
    exact=true
) }}

-- sqlfluff:dialect:postgres
{# The canonical select parity renders for a PostgreSQL relation holding one column of every kind
    it canonicalizes; tests/golden/postgres.sql.golden holds it. The first line makes sqlfluff parse
    it as PostgreSQL; it stays in the rendered SQL, so this comment keeps the line break before it. -#}
{{ parity.side_select(
    'postgres', 'public.orders', 1,
    parity._every_kind_columns(['attributes'], 'postgres'),
    exact=true
) }}

-- sqlfluff:dialect:snowflake
{# The canonical select parity renders for a Snowflake relation holding one column of every kind
    it canonicalizes; tests/golden/snowflake.sql.golden holds it. The first line makes sqlfluff parse
    it as Snowflake; it stays in the rendered SQL, so this comment keeps the line break before it. -#}
{{ parity.side_select(
    'snowflake', 'legacy.public.orders', 1,
    parity._every_kind_columns(['weight', 'attributes', 'document', 'document_text'], 'snowflake'),
    exact=true
) }}

-- sqlfluff:dialect:bigquery
{# The canonical select parity renders for a BigQuery relation holding one column of every kind
    it canonicalizes; tests/golden/bigquery.sql.golden holds it. The first line makes sqlfluff parse
    it as BigQuery; it stays in the rendered SQL, so this comment keeps the line break before it. -#}
{{ parity.side_select(
    'bigquery', '`legacy-project.sales.orders`', 1,
    parity._every_kind_columns(['weight', 'attributes', 'document', 'document_text'], 'bigquery'),
    exact=true
) }}

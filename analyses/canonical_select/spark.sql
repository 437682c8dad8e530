{#- The canonical select parity renders for a Spark relation holding one column of every kind
    it canonicalizes; tests/golden/spark.sql.golden holds it, and sqlfluff lints it, which is how
    the dialect macros themselves are kept lint-clean. -#}
{{ parity.side_select(
    'spark', 'lakehouse.orders', 1,
    parity._every_kind_columns(['document'], 'spark'),
    exact=true
) }}

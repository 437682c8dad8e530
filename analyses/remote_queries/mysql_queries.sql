{#- The queries parity sends a MySQL side, keyed by one and by two columns
    (parity._every_remote_query); tests/golden/remote_queries/mysql.sql.golden holds them. -#}
{{ parity._every_remote_query('mysql', 'legacy.orders', ['yield_rate', 'is_gift', 'attributes', 'document', 'document_text']) }}

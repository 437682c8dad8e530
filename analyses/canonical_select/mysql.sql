-- sqlfluff:dialect:mysql
{# The canonical select parity renders for a MySQL relation holding one column of every kind
    it canonicalizes (but decimals at scale 38: MySQL's scale stops at 30);
    tests/golden/mysql.sql.golden holds it. The first line makes sqlfluff parse
    it as MySQL; it stays in the rendered SQL, so this comment keeps the line break before it. -#}
{{ parity.side_select(
    'mysql', 'legacy.orders', 1,
    parity._every_kind_columns(['yield_rate', 'is_gift', 'attributes', 'document', 'document_text'], 'mysql'),
    exact=true
) }}

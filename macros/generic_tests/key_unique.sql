{#- Fails by the number of key values held by more than one row on one side of a pair (`source`
    or `target`), or by one when the pair has no result or its keys were not counted (its data
    was not compared). Tune with warn_if / error_if. -#}
{% test key_unique(model, pair, side) %}
    {{ config(fail_calc='coalesce(sum(coalesce(duplicate_keys, 1)), 0)') }}
{{ parity._key_count_test(pair, side, 'duplicate_keys') }}
{% endtest %}

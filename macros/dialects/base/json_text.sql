{#- Pieces of the canonical JSON text (docs/canonical-encoding.md, "JSON") that more than one
    dialect writes alike: part of the dialects' shared base (macros/dialects/base/), which each
    dialect's macros call with its engine's functions. The base calls no concept macro, so calls run
    one way: canonical/ → dialects/ → base/. -#}

{#- The mark that makes a text which is no JSON document compare as itself: no canonical JSON
    text starts with a letter i. -#}
{% macro _invalid_json_text(text) %}
    {{ return("'invalid JSON: ' || " ~ text) }}
{% endmacro %}


{#- A JSON number's canonical text from its JSON text (`text`), the dialect's test of that text
    against a pattern (`matches`, with the placeholders {0} and {1}), and the dialect's SQL for
    the number's double (`double`), for that double as C's `%.14e` (`scientific`: 15
    significant digits, the exponent signed), its digits as an integer (`integer_text`), whether
    it is integral (`integral`), and its `%.13a` text (`hex_text`). A text of at most 15 digits
    without exponent or trailing zeros is already canonical (the double it rounds to has no other
    such decimal), and spares the formatting. Else an integral double below 2^53 is its digits; a
    normal double that the 15 digits read back as is those digits written plainly (a normal double
    has at most one such decimal); any other, its `%.13a`. -#}
{% macro _json_number_text(text, matches, double, scientific, integer_text, integral, hex_text) %}
    {{ return(
        "case when length(translate(" ~ text ~ ", '-.', '')) <= 15 and " ~ text ~ " <> '-0' and "
        ~ matches.format(text, "'^-?[0-9]+([.][0-9]*[1-9])?$'") ~ " then " ~ text
        ~ " when " ~ integral ~ " and abs(" ~ double ~ ") < 9007199254740992 then " ~ integer_text
        ~ " when abs(" ~ double ~ ") >= cast('2.2250738585072014e-308' as double) and cast(" ~ scientific ~ " as double) = " ~ double
        ~ " then " ~ parity._plain_decimal(scientific)
        ~ " else " ~ hex_text ~ " end"
    ) }}
{% endmacro %}


{#- The plain digits (no exponent, no trailing zeros) of a `%.14e` text such as
    `-2.82879384806159e+17`, by string functions that Spark and DuckDB spell alike. -#}
{% macro _plain_decimal(scientific) %}
    {%- set digits = "regexp_replace(regexp_extract(" ~ scientific ~ ", '([0-9])[.]([0-9]+)e', 1) || regexp_extract("
        ~ scientific ~ ", '([0-9])[.]([0-9]+)e', 2), '0+$', '')" -%}
    {%- set exponent = "cast(regexp_extract(" ~ scientific ~ ", 'e([-+][0-9]+)', 1) as int)" -%}
    {{ return(
        "(case when " ~ scientific ~ " like '-%' then '-' else '' end"
        ~ " || case when " ~ exponent ~ " >= length(" ~ digits ~ ") - 1 then " ~ digits ~ " || repeat('0', " ~ exponent ~ " - length(" ~ digits ~ ") + 1)"
        ~ " when " ~ exponent ~ " >= 0 then substr(" ~ digits ~ ", 1, " ~ exponent ~ " + 1) || '.' || substr(" ~ digits ~ ", " ~ exponent ~ " + 2)"
        ~ " else '0.' || repeat('0', -" ~ exponent ~ " - 1) || " ~ digits ~ " end)"
    ) }}
{% endmacro %}

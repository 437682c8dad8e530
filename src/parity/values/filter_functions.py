"""The functions a pair's `where` may call, per dialect: deterministic scalar functions over the
row's own values (numbers, strings, dates and times, NULL handling) and the current date and
time. Nothing that reads beyond the row (a file, another table, a setting, the environment),
acts (sleeps, writes, signals, locks) or reaches another program (reflection, extensions).

The one place these lists live: README.md ("Filters") prints them, and a test holds the two
together. A project adds to them in its vars (`parity_filter_functions`).
"""

from __future__ import annotations


def names(text: str) -> frozenset[str]:
    """The names a text lists, one word each."""
    return frozenset(text.split())


# Every dialect parity checks filters in has these.
COMMON = names(
    """
    abs ceil ceiling floor round sign sqrt exp ln power mod
    coalesce nullif greatest least
    lower upper length trim ltrim rtrim replace concat substr substring left right lpad rpad
    reverse
    cast extract current_date current_timestamp
    """
)

_SPARK = """
    bround pow log log10 log2 pmod nvl nvl2 ifnull if isnull isnotnull isnan nanvl
    lcase ucase char_length character_length concat_ws instr locate position startswith
    endswith contains regexp_like regexp_extract regexp_replace initcap split_part
    try_cast to_date to_timestamp to_number date_format date_add date_sub datediff add_months
    months_between date_trunc trunc year quarter month day dayofmonth dayofweek dayofyear
    weekofyear hour minute second make_date make_timestamp unix_timestamp from_unixtime
    now current_timezone size element_at array_contains
"""

# Each dialect's own, beside the common ones.
DIALECT = {
    "spark": names(_SPARK),
    "databricks": names(_SPARK),
    "postgres": names(
        """
        trunc log div width_bucket char_length character_length octet_length btrim strpos
        position starts_with split_part regexp_replace regexp_like initcap concat_ws to_char
        to_date to_timestamp to_number date_trunc date_part make_date make_timestamp
        make_interval age isfinite now localtimestamp localtime current_time
        """
    ),
    "duckdb": names(
        """
        trunc pow log log10 log2 fmod ifnull isnan isinf isfinite lcase ucase strlen
        char_length character_length concat_ws instr strpos position starts_with ends_with
        contains prefix suffix split_part regexp_matches regexp_replace regexp_extract
        try_cast date_trunc date_part datepart date_diff datediff date_add date_sub year
        quarter month day dayofmonth dayofweek dayofyear week hour minute second make_date
        make_timestamp strftime strptime to_timestamp epoch now today
        """
    ),
    "mysql": names(
        """
        truncate pow log log10 log2 ifnull if isnull lcase ucase char_length
        character_length concat_ws instr locate position date date_add date_sub adddate
        subdate datediff timestampdiff timestampadd date_format str_to_date year quarter
        month day dayofmonth dayofweek dayofyear week hour minute second makedate curdate
        curtime now utc_date utc_timestamp unix_timestamp from_unixtime
        """
    ),
    "snowflake": names(
        """
        trunc pow log div0 iff ifnull nvl nvl2 zeroifnull char_length charindex contains
        startswith endswith position split_part regexp_like regexp_replace initcap
        try_cast to_date to_timestamp to_char to_number date_trunc date_part dateadd
        datediff year quarter month day dayofmonth dayofweek hour minute second sysdate
        """
    ),
    "bigquery": names(
        """
        trunc pow log log10 div ifnull if safe_cast char_length character_length strpos
        starts_with ends_with contains_substr split regexp_contains regexp_replace
        regexp_extract initcap date datetime timestamp date_add date_sub date_diff
        date_trunc timestamp_add timestamp_sub timestamp_diff timestamp_trunc format_date
        parse_date current_datetime
        """
    ),
}


def allowed_functions(dialect: str, added: frozenset[str] = frozenset()) -> frozenset[str]:
    """The functions a filter in ``dialect`` may call: the common ones, the dialect's own and
    those the project added (lower-case names)."""
    return COMMON | DIALECT.get(dialect, frozenset()) | added

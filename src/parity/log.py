"""The library's logger. Under dbt's session submission its records reach dbt's own log."""

import logging

logger = logging.getLogger("parity")

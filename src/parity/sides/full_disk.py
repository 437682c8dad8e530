"""A full disk named as such. Spark fails a task that cannot write (its results, a shuffle or a
spill file) with an error whose own message says only that a task failed (TASK_WRITE_FAILED);
"No space left on device" is the message of an exception among its causes, shown only in the
stack trace. The causes are walked in the JVM, through py4j."""

from __future__ import annotations

import re
from typing import Any

from py4j.protocol import Py4JJavaError

from parity.sides.published_errors import published

NO_SPACE = "No space left on device"
WRITING = re.compile(r"while writing rows to (\S+?)\.?(?:\s|$)")
# Causes followed at most: a chain is short, and one that loops back stops here.
DEPTH = 32


def full_disk(error: Py4JJavaError) -> str | None:
    """Why a Spark job failed when one of its causes says the disk is full, with the file it was
    writing when a cause names one; else None."""
    messages = [str(message) for message in _messages(error.java_exception)]
    if not any(NO_SPACE in message for message in messages):
        return None
    written = next((m.group(1) for m in map(WRITING.search, messages) if m), None)
    where = f" writing {published(written)}" if written else ""
    return f"the disk is full ({NO_SPACE}){where}"


def _messages(throwable: Any) -> list[Any]:
    """The messages of a Java exception and of its causes, outermost first."""
    messages = []
    for _ in range(DEPTH):
        if throwable is None:
            break
        message = throwable.getMessage()
        if message is not None:
            messages.append(message)
        cause = throwable.getCause()
        throwable = None if cause is None or cause.equals(throwable) else cause
    return messages

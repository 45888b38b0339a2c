"""nd's exceptions."""

from __future__ import annotations

from typing import List, Optional


class Error(Exception):
    """An error of nd: a failed call (its message is nd's, naming the op,
    its location in the model, the operand, the value and the dim of a
    failed run-time check), an argument that does not fit the entry's
    signature, a model that does not compile, nd not found.

    `message` is nd's message, `status` the name of nd's status
    ("check failed", "invalid argument", ...; nd_status_string), `code` its
    number (nd_status), or None for errors that are not a call's. The call
    that raised it changed nothing but what Runtime.h allows (a donated
    input may hold the updates of the ops before the one that failed); the
    module can be called again."""

    def __init__(self, message: str, status: str = "invalid argument",
                 code: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


class ArgumentError(Error, ValueError):
    """An input or output that does not fit the entry's signature (count,
    rank, a static dim, two sizes of one named dim, a donated input that
    cannot be updated in place, something that is no array), or an option
    out of range (a thread count), found before the call: also a
    ValueError."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status="invalid argument", code=1)


class DTypeError(Error, TypeError):
    """An input of an element type that numpy's same_kind casting does not
    take to the entry's, a donated input or output of another element type
    than the entry's, or one that numpy or torch cannot hold, found before
    the call: also a TypeError."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status="invalid argument", code=1)


class CompileError(Error):
    """nd-compile failed: `message` holds its diagnostics, `command` what
    ran."""

    def __init__(self, message: str,
                 command: Optional[List[str]] = None) -> None:
        super().__init__(message, status="compile failed", code=None)
        self.command = command

"""Typed errors: each says what was wrong and where. All are ``ValueError``s."""

from __future__ import annotations


class RoseKingError(ValueError):
    """Base class of every error the Rose King engine raises for bad input."""


class _Sentence(RoseKingError):
    """An error a player reads: ``template`` with ``{name}`` placeholders filled from
    ``params``, so that a server can show it in the player's language."""

    def __init__(self, template: str, **params: str | int) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class InvalidMoveError(_Sentence):
    """A move's text is not RK-22 notation."""


class IllegalMoveError(_Sentence):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPositionError(RoseKingError):
    """A position's text is not valid RK-23; ``field`` names the field (1..6) at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class InvalidRecordError(RoseKingError):
    """A game record is malformed, or one of its moves is illegal.

    ``move_index`` is the 0-based index of the first bad move, or ``None`` when the fault
    is elsewhere in the record (then ``key`` names the record key at fault).
    """

    def __init__(self, message: str, *, key: str | None = None, move_index: int | None = None):
        where = f"move {move_index}" if move_index is not None else (key or "record")
        super().__init__(f"{where}: {message}")
        self.key = key
        self.move_index = move_index

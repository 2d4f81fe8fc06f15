"""Errors the services raise; the app turns each into one JSON answer with its status."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotSignedIn(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """An illegal move, a stale version, a name taken: nothing was changed."""

    status = 409


class Unprocessable(ServiceError):
    """Input that is not what the field takes (e.g. a move in no game's notation)."""

    status = 422

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.problem = message

"""Every refusal is a JSON sentence in the reader's language: the service's own errors,
invalid requests (422 naming the fields), Starlette's refusals, and anything unexpected
(500, with nothing changed)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ServiceError, Unprocessable, as_sentence, validation_answer
from ..i18n import N_, _
from .json_bounds import MAX_DEPTH

log = logging.getLogger("roses.server")

# Starlette's own refusals (no such route, a method a route does not take), in words.
_HTTP_ERRORS = {
    404: N_("there is nothing at this address"),
    405: N_("this address does not take that kind of request"),
}

# What FastAPI says when a request body is not JSON it can read (its parser gave up).
_UNREADABLE_BODY = "There was an error parsing the body"


def _unreadable_body(error: StarletteHTTPException) -> JSONResponse:
    """A body FastAPI's JSON parser gave up on: nested deeper than the interpreter's
    recursion allows (422, like any value nested too deep), or not text at all (400)."""
    if isinstance(error.__cause__, RecursionError):
        status = 422
        problem = _("the request body is nested more than {most} levels deep", most=MAX_DEPTH)
    else:
        status = 400
        problem = _("the request body is not JSON that can be read")
    sentence = as_sentence(problem)
    body = {"detail": sentence, "errors": [{"field": "body", "message": sentence}]}
    return JSONResponse(body, status_code=status)


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, error: ServiceError) -> JSONResponse:
        body: dict[str, Any] = {"detail": as_sentence(error.message)}
        if isinstance(error, Unprocessable):
            body["errors"] = [{"field": error.field, "message": as_sentence(error.problem)}]
        return JSONResponse(body, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(validation_answer(error.errors()), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.detail == _UNREADABLE_BODY:
            return _unreadable_body(error)
        detail = _HTTP_ERRORS.get(error.status_code)
        return JSONResponse(
            {"detail": as_sentence(_(detail) if detail else str(error.detail))},
            status_code=error.status_code,
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {"detail": as_sentence(_("internal error; nothing was changed"))}, status_code=500
        )

"""``GET /api/health``: the balancer's health check (``roses cluster``), as cheap as an
answer can be: no database, no thread, nothing a person could learn from it."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()


@router.get("/api/health", tags=["server"])
async def health() -> dict[str, str]:
    """``{"status": "ok"}`` while this server process answers."""
    return {"status": "ok"}

"""Request bodies of the HTTP API; pydantic names the field at fault (422)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Path
from pydantic import BaseModel, Field, field_validator, model_validator

from roses.roseking import parse_move

from .accounts import NAME_RULE, normal_name

# Database integers are 32-bit: larger ids are refused here rather than by the database.
GameId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a game's number")]


def _player_name(name: str) -> str:
    return normal_name(name)  # ValueError stating the rule: 422 naming the field


PlayerName = Annotated[str, Field(min_length=2, max_length=24, description=NAME_RULE)]


class Credentials(BaseModel):
    name: PlayerName
    password: str = Field(min_length=1, max_length=200)

    _name_rule = field_validator("name")(_player_name)


class Registration(Credentials):
    password: str = Field(min_length=8, max_length=200)


class SeatChoice(BaseModel):
    """Who sits in a seat: the creator, anyone who joins, a named person, or a bot."""

    kind: Literal["me", "open", "invite", "bot"]
    name: PlayerName | None = Field(default=None, description="the invited player ('invite')")
    bot: str | None = Field(
        default=None, max_length=32, description="a bot from GET /api/bots (kind 'bot')"
    )
    strength: str | None = Field(
        default=None, max_length=16, description="the bot's strength (kind 'bot')"
    )

    @field_validator("name")
    @classmethod
    def _invited_name(cls, name: str | None) -> str | None:
        return None if name is None else _player_name(name)

    @model_validator(mode="after")
    def _needed_fields(self) -> SeatChoice:
        if self.kind == "invite" and not self.name:
            raise ValueError("an invited seat needs 'name'")
        if self.kind == "bot" and not self.bot:
            raise ValueError("a bot seat needs 'bot'")
        return self


class NewGame(BaseModel):
    players: Literal[2, 4] = 2
    random_start: bool = Field(default=False, description="RK-7: the first player drawn at random")
    light: bool = Field(default=False, description="RK-19: plays can be undone until End turn")
    show_draw_pile: bool = Field(default=False, description="RK-20: list the draw pile's cards")
    seats: list[SeatChoice] = Field(
        description="one per seat in turn order: Red, White (four players: R1, W1, R2, W2)"
    )

    @model_validator(mode="after")
    def _consistent(self) -> NewGame:
        if len(self.seats) != self.players:
            raise ValueError(f"'seats' needs {self.players} entries, one per seat")
        if sum(choice.kind == "me" for choice in self.seats) != 1:
            raise ValueError("'seats' must hold exactly one seat of kind 'me'")
        invited = [choice.name for choice in self.seats if choice.kind == "invite"]
        if len(invited) != len(set(invited)):
            raise ValueError("a player can be invited to one seat only")
        if self.random_start and self.players == 4:
            raise ValueError("'random_start' is a two-player option (RK-7)")
        return self


class Join(BaseModel):
    seat: int | None = Field(
        default=None, ge=0, le=3, description="the seat; any free one if left out"
    )


class Versioned(BaseModel):
    version: int = Field(
        ge=0, le=2**31 - 1, description="the game version the action was chosen on"
    )


class MoveRequest(Versioned):
    move: str = Field(
        max_length=8, description="RK-22 notation: N2, N2h, draw (passes are automatic)"
    )

    @field_validator("move")
    @classmethod
    def _notation(cls, text: str) -> str:
        parse_move(text)  # raises InvalidMoveError, a ValueError: 422 naming 'move'
        return text

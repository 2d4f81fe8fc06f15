"""Request bodies of the HTTP API; pydantic names the field at fault (422)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from ..i18n import N_, _, ngettext
from .json_bounds import MAX_DEPTH, too_deep, unstorable, unstorable_text
from .names import NAME_RULE, chosen_name, normal_name

# Database integers are 32-bit: larger ids are refused here rather than by the database.
GameId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a game's number")]


UNSTORABLE = N_("this holds a NUL character or half of a surrogate pair, which no database keeps")


def _shallow(value: Any) -> Any:
    """A JSON value a person sent, checked before it is kept or parsed further."""
    if too_deep(value):
        raise ValueError(_("this is nested more than {most} levels deep", most=MAX_DEPTH))
    if unstorable(value):
        raise ValueError(_(UNSTORABLE))
    return value


def _player_name(name: str) -> str:
    return normal_name(name)  # ValueError stating the rule: 422 naming the field


PlayerName = Annotated[str, Field(min_length=2, max_length=24, description=NAME_RULE)]


class Credentials(BaseModel):
    name: PlayerName
    password: str = Field(min_length=1, max_length=200)

    _name_rule = field_validator("name")(_player_name)


class Registration(Credentials):
    """A name chosen (registering, or a guest upgrading) and its password."""

    password: str = Field(min_length=8, max_length=200)

    _name_rule = field_validator("name")(chosen_name)


class SeatChoice(BaseModel):
    """Who sits in a seat: the creator, anyone who joins, a named person, or a bot."""

    kind: Literal["me", "open", "invite", "bot"]
    name: PlayerName | None = Field(default=None, description="the invited player ('invite')")
    bot: str | None = Field(
        default=None, max_length=32, description="a bot from GET /api/catalog (kind 'bot')"
    )
    strength: str | None = Field(
        default=None,
        max_length=16,
        description="one of the bot's strengths in GET /api/catalog (kind 'bot'; its middle "
        "one if not given; none for a bot that has none)",
    )

    @field_validator("name")
    @classmethod
    def _invited_name(cls, name: str | None) -> str | None:
        return None if name is None else _player_name(name)

    @model_validator(mode="after")
    def _needed_fields(self) -> SeatChoice:
        if self.kind == "invite" and not self.name:
            raise ValueError(_("an invited seat needs the name of the player invited"))
        if self.kind == "bot" and not self.bot:
            raise ValueError(_("a bot seat needs the name of a bot"))
        return self


class TimeLimit(BaseModel):
    """No time limit, a live clock per player, or a correspondence deadline per move."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["none", "live", "correspondence"] = Field(
        default="none", description="none, a live clock, or days per move"
    )
    clock: str | None = Field(
        default=None,
        max_length=16,
        description="live: minutes+seconds added per move, one of GET /api/catalog's "
        "live_clocks (e.g. 5+5)",
    )
    days: int | None = Field(
        default=None, ge=1, le=14, description="correspondence: 1, 3, 7 or 14 days per move"
    )


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt or misplaced option is an error

    game: str = Field(default="roseking", max_length=24, description="a game from GET /api/catalog")
    players: int = Field(default=2, ge=1, le=8, description="one of the game's player counts")
    options: dict[str, bool] = Field(
        default_factory=dict, max_length=16, description="the game's options (GET /api/catalog)"
    )
    seats: list[SeatChoice] = Field(
        min_length=1,
        max_length=8,
        description="one per seat in seat order (The Rose King: Red, White; four players: "
        "R1, W1, R2, W2)",
    )
    rated: bool = Field(
        default=False,
        description="rated (Glicko-2 ratings change when it ends; registered players and bots "
        "only) or casual",
    )
    bot_accounts: bool = Field(
        default=False,
        description="a rated game only: bot accounts (programs playing through the API) may "
        "take seats beside people; otherwise a rated game refuses them (409)",
    )
    time_limit: TimeLimit = Field(
        default_factory=TimeLimit,
        description="no time limit (the default), a live clock, or correspondence days per move",
    )

    @model_validator(mode="after")
    def _consistent(self) -> NewGame:
        if len(self.seats) != self.players:
            raise ValueError(
                ngettext(
                    "a game of {n} player needs {n} seat",
                    "a game of {n} players needs {n} seats",
                    self.players,
                )
            )
        if sum(choice.kind == "me" for choice in self.seats) != 1:
            raise ValueError(_("exactly one seat must be yours"))
        invited = [choice.name for choice in self.seats if choice.kind == "invite"]
        if len(invited) != len(set(invited)):
            raise ValueError(_("a player can be invited to one seat only"))
        return self


class LanguageChoice(BaseModel):
    language: Literal["en", "de", "it", "pt-BR", "pt"] = Field(
        description="English, Deutsch, Italiano, Português (Brasil) or Português (Portugal)"
    )


class Join(BaseModel):
    seat: int | None = Field(
        default=None, ge=0, le=7, description="the seat; any free one if left out"
    )


class Versioned(BaseModel):
    version: int = Field(
        ge=0, le=2**31 - 1, description="the game version the action was chosen on"
    )


class MoveRequest(Versioned):
    move: Any = Field(
        description="the action in the game's form: The Rose King N2, N2h, draw (RK-22); "
        "Wars of the Roses an object (a pick, French Aid, orders)",
        json_schema_extra={
            "anyOf": [{"type": "string", "minLength": 1, "maxLength": 16}, {"type": "object"}]
        },
    )

    @field_validator("move", mode="before")
    @classmethod
    def _text_or_object(cls, move: Any) -> Any:
        if (isinstance(move, str) and 1 <= len(move) <= 16) or isinstance(move, dict):
            return _shallow(move)
        raise ValueError(_("a move is a short text (N2, draw) or an object (Wars of the Roses)"))


class DraftRequest(BaseModel):
    draft: dict[str, Any] | None = Field(
        description="private to the seat: never shown to anyone else (e.g. a plan being made)"
    )
    _shallow_draft = field_validator("draft", mode="before")(_shallow)


def storable_text(text: str) -> str:
    if unstorable_text(text):
        raise ValueError(_(UNSTORABLE))
    return text


# A player's name in a path (a profile, a mute): checked as any text kept or looked up.
NameInPath = Annotated[
    str,
    Path(min_length=2, max_length=24, description="a player's name"),
    AfterValidator(storable_text),
]


class ChatLine(BaseModel):
    """Free text, or a courtesy phrase's key (one of the two)."""

    # 500 characters: a few lines at the table, not a page.
    text: str | None = Field(
        default=None, min_length=1, max_length=500, description="a message to the table"
    )
    phrase: str | None = Field(
        default=None,
        max_length=24,
        description="a courtesy phrase's key (hello, good-luck, ...: the chat's `phrases`)",
    )

    @field_validator("text")
    @classmethod
    def _storable(cls, text: str | None) -> str | None:
        return None if text is None else storable_text(text)


# -- answers ---------------------------------------------------------------------------------


class ChatMessageOut(BaseModel):
    """A message at a game's table: who, when, in which room, what (never anything of the
    game)."""

    id: int
    player: str
    room: str = Field(description="players or spectators")
    phrase: str | None = Field(description="a courtesy phrase's key, or null for free text")
    text: str = Field(description="the text; a phrase in the reader's language")
    at: str = Field(description="when, ISO 8601 in UTC")


class Phrase(BaseModel):
    key: str
    text: str = Field(description="in the reader's language")


class ChatOut(BaseModel):
    messages: list[ChatMessageOut] = Field(description="the latest, oldest first")
    room: str = Field(description="where I write: players or spectators")
    talk: str = Field(description="what I may write now: free, courtesy (a phrase only) or closed")
    may_write: bool = Field(description="whether I may write free text now")
    refusal: str | None = Field(description="why I may not write free text now, or null")
    phrases: list[Phrase] = Field(description="the courtesy phrases, in the reader's language")


class Mutes(BaseModel):
    muted: list[str] = Field(description="players whose messages I do not see")


class RematchOffer(BaseModel):
    game_id: int = Field(description="the finished game")
    accepted: list[str] = Field(description="players who offered or accepted")
    waiting_for: list[str] = Field(description="players yet to accept (bots accept at once)")
    rematch: int | None = Field(description="the new game, once everyone accepted")


class NowPlaying(BaseModel):
    games: list[dict[str, Any]] = Field(description="each game's envelope (no game state)")
    page: int
    pages: int


class Problem(BaseModel):
    """Every refusal: a sentence saying what was wrong; nothing was changed."""

    detail: str


class FieldProblem(BaseModel):
    field: str = Field(description="where, e.g. 'seats.1.kind' or 'move'")
    message: str


class InvalidRequest(Problem):
    """422: the request is not what the operation takes; ``errors`` names each field."""

    errors: list[FieldProblem]


ERROR_ANSWERS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem, "description": "the request cannot be understood"},
    401: {"model": Problem, "description": "sign in first (or play as a guest)"},
    403: {"model": Problem, "description": "not yours to do (another seat, another site)"},
    404: {"model": Problem, "description": "no such game"},
    409: {
        "model": Problem,
        "description": "not allowed now: an illegal action, a stale version, a claim on time "
        "before the deadline",
    },
    413: {"model": Problem, "description": "the body is too large"},
    415: {"model": Problem, "description": "the body is not JSON"},
    422: {"model": InvalidRequest, "description": "a field is not what it takes"},
    429: {"model": Problem, "description": "too many requests of this kind; see Retry-After"},
}

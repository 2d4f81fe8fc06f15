"""Creating, joining and cancelling games, and starting one once its seats are filled: the
lobby's rules, in the caller's transaction."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.orm import Session

from roses.games import JSON, GameModule, InvalidInput, bots_offered, game_module

from ..accounts.blocks import estranged_ids, parted
from ..accounts.bot_accounts import check_bots_welcome
from ..accounts.users import find_user
from ..clocks.time_control import TimeControl, server_time, start_game_clocks
from ..db.models import Game, GameStatus, Seat, User, utcnow
from ..db.store import claim
from ..errors import Conflict, Forbidden, NotFound, Unprocessable
from ..http.schemas import NewGame
from ..i18n import _, game_error
from . import vacation


def _check_bot(
    module: GameModule[Any, Any], index: int, bot: str, strength: str | None
) -> str | None:
    """Seat ``index``'s bot strength (its default if not given, None for a bot without
    strengths: its rating is the bot's own); ``Unprocessable`` naming the field and the
    choices. A bot that does not search has nothing a strength could change, so asking one
    of it is refused rather than quietly ignored (the form offers none)."""
    bots = bots_offered(module)
    if bot not in bots:
        raise Unprocessable(
            f"seats.{index}.bot",
            _(
                "unknown bot '{bot}' (choose from: {choices})",
                bot=bot,
                choices=", ".join(sorted(bots)),
            ),
        )
    strengths = bots[bot]
    if not strengths:
        if strength is not None:
            raise Unprocessable(
                f"seats.{index}.strength",
                _("the {bot} bot has no strengths to choose from", bot=bot),
            )
        return None
    if strength is None:
        return strengths[len(strengths) // 2]
    if strength not in strengths:
        raise Unprocessable(
            f"seats.{index}.strength",
            _(
                "unknown strength '{strength}' (choose from: {choices})",
                strength=strength,
                choices=", ".join(strengths),
            ),
        )
    return strength


def create_game(
    db: Session, user: User, request: NewGame, time_control: TimeControl | None = None
) -> Game:
    try:
        module = game_module(request.game)
    except InvalidInput as error:
        raise Unprocessable("game", game_error(error)) from None
    try:
        options = module.parse_options(request.players, request.options)
    except InvalidInput as error:
        raise Unprocessable("options", game_error(error)) from None
    game = new_game(module, request.players, options, user.id)
    game.rated = request.rated
    game.bot_accounts = request.bot_accounts
    game.time_control = None if time_control is None else time_control.to_json()
    accounts = [user]
    for index, choice in enumerate(request.seats):
        seat = Seat(seat=index)
        if choice.kind == "me":
            check_rated_seat(game, user)
            seat.user_id = user.id
        elif choice.kind == "invite":
            assert choice.name is not None
            invited = find_user(db, choice.name)
            if invited is None:
                raise Conflict(_("there is no player named '{name}' to invite", name=choice.name))
            if invited.id == user.id:
                raise Conflict(_("you cannot invite yourself to a second seat"))
            if parted(db, user.id, invited.id):  # naming neither side of the block
                raise Conflict(_("you and {name} cannot play together", name=invited.name))
            check_rated_seat(game, invited)
            accounts.append(invited)
            seat.invited_user_id = invited.id
        elif choice.kind == "bot":
            assert choice.bot is not None
            seat.bot_strength = _check_bot(module, index, choice.bot, choice.strength)
            seat.bot_name = choice.bot
        game.seats.append(seat)
    check_bots_welcome(game, accounts)
    start_if_full(game, module)
    db.add(game)
    db.flush()
    return game


def check_rated_seat(game: Game, user: User) -> None:
    """Guests are never rated: ``Conflict`` if ``user`` is a guest and ``game`` is rated."""
    if game.rated and user.is_guest:
        raise Conflict(
            _(
                "guests are never rated, and {name} plays as a guest: make the game casual, "
                "or register first",
                name=user.name,
            )
        )


def _is_filled(seat: Seat) -> bool:
    return seat.user_id is not None or seat.bot_name is not None


def deal_seed() -> int:
    """A new game's seed: unpredictable, so nobody can foresee its deal."""
    return secrets.randbits(63)


def new_game(
    module: GameModule[Any, Any], players: int, options: dict[str, JSON], created_by: int
) -> Game:
    """A game of ``module`` with a fresh deal, waiting for its seats (to be added)."""
    seed = deal_seed()
    return Game(
        game=module.name,
        players=players,
        options=options,
        seed=seed,
        deal=module.setup(seed, players, options),
        status=GameStatus.WAITING,
        version=0,
        to_act=[],
        turn_since=utcnow(),
        created_by=created_by,
    )


def start_if_full(game: Game, module: GameModule[Any, Any]) -> None:
    """Start the game once every seat has a player or a bot."""
    if all(_is_filled(seat) for seat in game.seats):
        _start(game, module)


def _start(game: Game, module: GameModule[Any, Any]) -> None:
    state = module.restore(game.deal, game.players, game.options)
    game.status = GameStatus.ACTIVE
    game.to_act = list(module.to_act(state))
    game.turn_since = utcnow()
    start_game_clocks(game, module, server_time())


def join_game(db: Session, user: User, game_id: int, wanted: int | None) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(_("there is no game {id}", id=game_id))
    if any(seat.user_id == user.id for seat in game.seats):
        raise Conflict(_("you already have a seat in this game"))
    if game.status != GameStatus.WAITING:
        raise Conflict(_("this game has no free seat"))
    check_rated_seat(game, user)
    check_bots_welcome(game, [user, *_accounts_at(game)])
    if _parted_from_table(db, user, game):
        raise Conflict(_("no seat in this game is free for you"))  # as if full: none is

    def may_take(seat: Seat) -> bool:
        return not _is_filled(seat) and seat.invited_user_id in (None, user.id)

    candidates = [s for s in game.seats if may_take(s) and (wanted is None or s.seat == wanted)]
    if not candidates:
        if wanted is not None and wanted < len(game.seats):
            raise Conflict(_("seat {seat} is not free for you", seat=wanted))
        raise Conflict(_("no seat in this game is free for you"))
    # Invitations first: a seat kept for this player is theirs before an open one.
    seat = min(candidates, key=lambda s: (s.invited_user_id is None, s.seat))
    claim(db, game)
    seat.user_id = user.id
    start_if_full(game, game_module(game.game))
    vacation.pause_starting(db, game)  # an opponent away: their clock waits for them
    return game


def _accounts_at(game: Game) -> list[User]:
    """Everyone seated at the game or invited to it."""
    return [
        account
        for seat in game.seats
        for account in (seat.user, seat.invited_user)
        if account is not None
    ]


def _parted_from_table(db: Session, user: User, game: Game) -> bool:
    """Whether a block parts ``user`` from the game's creator or anyone seated or invited."""
    people = {game.created_by} | {
        person for seat in game.seats for person in (seat.user_id, seat.invited_user_id) if person
    }
    return bool(estranged_ids(db, user.id) & people)


def cancel_game(db: Session, user: User, game_id: int) -> Game:
    """The creator calls off a game nobody has started playing (e.g. an ignored invitation)."""
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(_("there is no game {id}", id=game_id))
    if game.created_by != user.id:
        raise Forbidden(_("only the player who created the game can cancel it"))
    if game.status != GameStatus.WAITING:
        raise Conflict(_("only a game still waiting for players can be cancelled"))
    claim(db, game, status=GameStatus.CANCELLED)
    return game

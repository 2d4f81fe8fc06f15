"""Bot accounts: a program playing through the API (``tokens``) under an account of its own.

Its owner marks the account on /settings, for good, as lichess does: a bot is listed as a
bot wherever its name shows, rated on the bots' ladder beside the server's own bots, and
kept out of rated games against people unless the game's creator accepts bot accounts
(``check_rated_seat``). An account that has played a rated game is a person's and stays
so: its ratings were earned against people, and a program starts on a new account.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from ..db.models import Game, GameStatus, Seat, User
from ..errors import Conflict
from ..i18n import _


def make_bot(db: Session, user_id: int) -> User:
    """Mark the account as a bot account; ``Conflict`` with the reason if it may not be."""
    user = db.get(User, user_id, populate_existing=True)
    if user is None or user.is_guest:
        raise Conflict(_("a guest account cannot become a bot account: register first"))
    if user.is_bot:
        raise Conflict(_("this account is a bot account already"))
    rated = exists().where(
        Seat.game_id == Game.id,
        Seat.user_id == user_id,
        Game.rated,
        Game.status != GameStatus.CANCELLED,
    )
    if db.scalar(select(rated)):
        raise Conflict(
            _(
                "an account that has played rated games stays a person's: make a new "
                "account for your program"
            )
        )
    user.is_bot = True
    return user


def check_bots_welcome(game: Game, accounts: Iterable[User]) -> None:
    """A rated game seats bot accounts beside people only if its creator accepted bot
    accounts: ``Conflict`` naming the bot otherwise. ``accounts``: everyone seated or
    invited, the newcomer included."""
    if not game.rated or game.bot_accounts:
        return
    people = [account for account in accounts if not account.is_bot]
    bots = [account for account in accounts if account.is_bot]
    if people and bots:
        raise Conflict(
            _(
                "this rated game does not accept bot accounts, and {name} is one: make the "
                "game casual, or accept bot accounts when creating it",
                name=bots[0].name,
            )
        )

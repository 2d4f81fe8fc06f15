"""Tournaments, the pure part: formats, pairings and standings from a tournament's log.

Nothing here touches a database, the network or the clock; the room that stores
tournaments (its routes, scheduler and pages) calls these functions. A tournament is its
config (`log.TournamentConfig`) and an append-only list of events (`log.Event`: players
joining and withdrawing, rounds started with their tables, games finished); `log.replay`
rebuilds a `log.TournamentState` from them, and a format (`formats.FORMATS`) reads that
state to pair the next round and rank the players. Same log, same pairings, same
standings: every tie broken by lot is drawn from the config's seed.

- `log.py`: the events, the config, `replay` and the state.
- `swiss.py`: FIDE Dutch Swiss for two-player games (through py4swiss).
- `pools.py`: round-robin pools for tables of 3 or 4, balanced meetings and seats.
- `arena.py`: lichess's arena: the free players paired at once, streaks.
- `standings.py`: the standing rows every format returns, with their tie-breaks.
- `formats.py`: the `Format` protocol and `FORMATS`, each format by its key.

An arena has no rounds, but its pairings are logged the same way: each call of
`pair_waiting` that pairs someone becomes one `RoundStarted` (a "wave", numbered on from
the previous one, no byes), so a game is always known by its (round, table).
"""

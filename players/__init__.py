"""The player domain, pure (no Redis, no clock): a registered player's own log and the state it folds to.

`events.py` holds the facts of a player's log (registered, token issued, token revoked), one typed event each,
and how an entry of the log is stored; `state.py` the player they fold to (its name and the hashes of its live
tokens); `names.py` what makes two names one, or look alike. The store that keeps players is
`events/player_store.py`, and the use cases that change them `service/application/accounts.py`.
"""

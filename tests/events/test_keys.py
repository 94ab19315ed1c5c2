from events import keys


def test_key_formats_are_pinned_and_share_the_game_hash_tag() -> None:
    assert keys.events("ab12") == "syndicate:game:{ab12}:events"
    assert keys.snapshot("ab12") == "syndicate:game:{ab12}:snapshot"
    assert keys.tokens("ab12") == "syndicate:game:{ab12}:tokens"
    assert keys.idempotency("ab12", "c0ffee", "k-1") == "syndicate:game:{ab12}:idempotency:c0ffee:k-1"
    assert keys.stream_ticket("ab12", "d1e5") == "syndicate:game:{ab12}:ticket:d1e5"


def test_each_leaderboard_is_a_slot_of_its_own() -> None:
    assert keys.leaderboard_counted("mobsters") == "syndicate:{leaderboard:mobsters}:counted"
    assert keys.leaderboard_stats("mobsters") == "syndicate:{leaderboard:mobsters}:stats"
    assert keys.lobby_game("ab12") == "syndicate:{lobby}:game:ab12"

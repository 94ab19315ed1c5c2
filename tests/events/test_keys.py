from events import keys


def test_key_formats_are_pinned_and_share_the_game_hash_tag() -> None:
    assert keys.events("ab12") == "syndicate:game:{ab12}:events"
    assert keys.snapshot("ab12") == "syndicate:game:{ab12}:snapshot"
    assert keys.tokens("ab12") == "syndicate:game:{ab12}:tokens"
    assert keys.idempotency("ab12", "c0ffee", "k-1") == "syndicate:game:{ab12}:idempotency:c0ffee:k-1"
    assert keys.stream_ticket("ab12", "d1e5") == "syndicate:game:{ab12}:ticket:d1e5"


def test_a_players_keys_share_its_hash_tag_and_ratings_share_their_rulesets() -> None:
    assert keys.player_events("p1") == "syndicate:player:{p1}:events"
    assert keys.player_state("p1") == "syndicate:player:{p1}:state"
    assert keys.player_games("p1") == "syndicate:player:{p1}:games"
    assert keys.player_feed("p1") == "syndicate:player:{p1}:feed"
    assert keys.player_feed_sent("p1") == "syndicate:player:{p1}:feed-sent"
    assert keys.player_ticket("p1", "d1e5") == "syndicate:player:{p1}:ticket:d1e5"
    assert keys.player_names() == "syndicate:{players}:names"
    assert keys.name_claim_pending("p1") == "syndicate:{players}:pending:p1"
    assert keys.player_skeletons() == "syndicate:{players}:skeletons"
    assert keys.skeletons_claimed() == "syndicate:{players}:skeletons-claimed"
    assert keys.ratings("mobsters") == "syndicate:{ratings:mobsters}:ratings"
    assert keys.rated_games("mobsters") == "syndicate:{ratings:mobsters}:games"
    assert keys.rating_board("mobsters") == "syndicate:{ratings:mobsters}:board"
    assert keys.rating_order("mobsters") == "syndicate:{ratings:mobsters}:order"
    assert keys.quick_match_lock("mobsters", 3) == "syndicate:{quick-match}:lock:mobsters:3"


def test_the_lobby_lives_in_a_slot_of_its_own() -> None:
    assert keys.lobby_game("ab12") == "syndicate:{lobby}:game:ab12"


def test_a_holders_games_have_a_slot_of_their_own_and_the_queues_keys_are_pinned() -> None:
    assert keys.holdings("address:10.0.0.1") == "syndicate:holdings:{address:10.0.0.1}"
    assert keys.holdings("player:p1") == "syndicate:holdings:{player:p1}"
    assert keys.pending_job("bot", "ab12") == "syndicate:pending:bot:ab12"
    assert keys.jobs_done(1733050000) == "syndicate:jobs-done:1733050000"
    assert keys.paced_turns() == "syndicate:paced-turns"

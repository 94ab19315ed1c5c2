import projections
from events import keys
from projections import lobby, notices, player_games, ratings
from projections.results import RESULTS
from projections.views import VIEWS


def test_key_formats_are_pinned_and_share_the_game_hash_tag() -> None:
    assert keys.events("ab12") == "syndicate:game:{ab12}:events"
    assert keys.snapshot("ab12") == "syndicate:game:{ab12}:snapshot"
    assert keys.tokens("ab12") == "syndicate:game:{ab12}:tokens"
    assert keys.idempotency("ab12", "c0ffee", "k-1") == "syndicate:game:{ab12}:idempotency:c0ffee:k-1"
    assert keys.stream_ticket("ab12", "d1e5") == "syndicate:game:{ab12}:ticket:d1e5"


def test_a_players_keys_share_its_hash_tag_and_ratings_share_their_rulesets() -> None:
    assert keys.player_events("p1") == "syndicate:player:{p1}:events"
    assert keys.player_state("p1") == "syndicate:player:{p1}:state"
    assert keys.player_ticket("p1", "d1e5") == "syndicate:player:{p1}:ticket:d1e5"
    assert keys.player_names() == "syndicate:{players}:names"
    assert keys.name_claim_pending("p1") == "syndicate:{players}:pending:p1"
    assert keys.player_skeletons() == "syndicate:{players}:skeletons"
    assert keys.skeletons_claimed() == "syndicate:{players}:skeletons-claimed"


def test_the_read_models_keys_are_pinned_the_lobby_and_each_rulesets_ratings_in_slots_of_their_own() -> None:
    assert VIEWS.key("ab12") == "syndicate:game:{ab12}:views"
    assert RESULTS.key("ab12") == "syndicate:game:{ab12}:result"
    assert lobby.game_key("ab12") == "syndicate:{lobby}:game:ab12"
    assert lobby.index_key("waiting", "*") == "syndicate:{lobby}:index:waiting:*"
    assert lobby.active_key() == "syndicate:{lobby}:active"
    assert lobby.quick_match_key("mobsters", 3) == "syndicate:{quick-match}:lock:mobsters:3"
    assert player_games.key("p1") == "syndicate:player:{p1}:games"
    assert notices.feed_key("p1") == "syndicate:player:{p1}:feed"
    assert notices.sent_key("p1") == "syndicate:player:{p1}:feed-sent"
    assert ratings.ratings_key("mobsters") == "syndicate:{ratings:mobsters}:ratings"
    assert ratings.games_key("mobsters") == "syndicate:{ratings:mobsters}:games"
    assert ratings.board_key("mobsters") == "syndicate:{ratings:mobsters}:board"
    assert ratings.order_key("mobsters") == "syndicate:{ratings:mobsters}:order"
    assert projections.patterns() == (
        "syndicate:game:{*}:views",
        "syndicate:game:{*}:result",
        "syndicate:game:{*}:review",
        "syndicate:game:{*}:review-progress",
        "syndicate:{lobby}:*",
        "syndicate:player:{*}:games",
        "syndicate:{ratings:*}:*",
    )


def test_a_holders_games_have_a_slot_of_their_own_and_the_queues_keys_are_pinned() -> None:
    assert keys.holdings("address:10.0.0.1") == "syndicate:holdings:{address:10.0.0.1}"
    assert keys.holdings("player:p1") == "syndicate:holdings:{player:p1}"
    assert keys.pending_job("bot", "ab12") == "syndicate:pending:bot:ab12"
    assert keys.jobs_done(1733050000) == "syndicate:jobs-done:1733050000"
    assert keys.paced_turns() == "syndicate:paced-turns"

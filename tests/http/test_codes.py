"""The registry of error codes (service/http/codes.py) holds every code the service can answer, each with one status
and one title: the rules' every table of refusals, and what werkzeug and gunicorn are answered with. (Every problem a
test receives is held to its code's title by tests.client.assert_problem.)"""

from __future__ import annotations

import json
from collections import defaultdict

from games.base import Refusal
from service.http.codes import CODES, TITLES
from service.http.problems import HTTP_CODES
from service.ops import gunicorn_worker


def statuses() -> dict[str, set[int]]:
    found: dict[str, set[int]] = defaultdict(set)
    for code in CODES:
        found[code.code].add(code.status)
    return found


def test_a_code_has_one_status_whoever_declares_it() -> None:
    assert {code: found for code, found in statuses().items() if len(found) > 1} == {}


def test_every_refusal_of_the_rules_is_in_the_registry() -> None:
    def tables(base: type[Refusal]) -> set[type[Refusal]]:
        return {table for sub in base.__subclasses__() for table in {sub, *tables(sub)}}

    refusals = {refusal.value for table in tables(Refusal) for refusal in table}
    assert refusals - {code.code for code in CODES} == set()


def test_what_werkzeug_and_gunicorn_refuse_is_declared_with_its_status() -> None:
    declared = statuses()
    assert all(declared[code] == {status} for status, code in HTTP_CODES.items())
    otherwise = [gunicorn_worker.code_of(Exception(), status) for status in (400, 500)]
    assert all(code in declared for code in [*gunicorn_worker.CODES.values(), *otherwise])


def test_a_code_has_one_title_whoever_declares_it_and_the_registry_titles_it_so() -> None:
    assert {code.code: code.title for code in CODES if code.title != TITLES[code.code]} == {}
    assert set(TITLES) == {code.code for code in CODES}


def test_what_gunicorn_refuses_is_titled_as_the_registry_titles_its_code() -> None:
    for code in [*gunicorn_worker.CODES.values(), *(gunicorn_worker.code_of(Exception(), s) for s in (400, 500))]:
        answer = gunicorn_worker.problem_answer(400, "Bad Request", code, "detail").split(b"\r\n\r\n", 1)[1]
        assert json.loads(answer)["title"] == TITLES[code]


def test_a_token_and_a_ticket_are_titled_apart() -> None:
    assert TITLES["invalid_token"] != TITLES["invalid_ticket"]
    assert "seat" not in TITLES["invalid_token"].lower()  # a player's token is refused with it too

"""The registry of error codes (service/http/codes.py) holds every code the service can answer, each with one status:
the rules' every table of refusals, and what werkzeug and gunicorn are answered with."""

from __future__ import annotations

from collections import defaultdict

from games.base import Refusal
from service.http.codes import CODES
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

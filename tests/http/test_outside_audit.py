"""The README's outside audit: a script that knows nothing of ours checks a finished game's export."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.client import ApiClient
from tests.service.read_models import play_shared_victory

README = Path(__file__).parent.parent.parent / "README.md"


def readme_script() -> str:
    found = re.search(r"<!-- outside-audit:[^>]*-->\n```python\n(.*?)```", README.read_text(), re.S)
    assert found, "the README lost its outside audit script"
    return found.group(1)


@pytest.fixture
def export(api: ApiClient, tmp_path: Path) -> tuple[Path, str]:
    table = play_shared_victory(api)
    commitment = table.body["seed_commitment"]  # as published at creation
    log = api.http.get(f"/v1/games/{table.id}/events", headers={"Accept": "application/x-ndjson"})
    path = tmp_path / "game.ndjson"
    path.write_bytes(log.data)
    return path, commitment


def check(tmp_path: Path, log: Path, commitment: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check.py"
    script.write_text(readme_script())
    return subprocess.run([sys.executable, str(script), str(log), commitment], capture_output=True, text=True)


def test_the_readme_script_checks_a_finished_games_export(export: tuple[Path, str], tmp_path: Path) -> None:
    log, commitment = export
    lines = log.read_text().splitlines()
    assert any("command" not in json.loads(line) for line in lines)  # the case the recipe spells out
    done = check(tmp_path, log, commitment)
    assert done.returncode == 0, done.stderr
    assert json.loads(lines[-1])["hash"] in done.stdout


def test_the_readme_script_names_the_line_that_was_edited(export: tuple[Path, str], tmp_path: Path) -> None:
    log, commitment = export
    lines = log.read_text().splitlines()
    edited = json.loads(lines[4])
    edited["at"] = "2020-01-01T00:00:00.000Z"
    lines[4] = json.dumps(edited)
    log.write_text("\n".join(lines) + "\n")
    done = check(tmp_path, log, commitment)
    assert done.returncode != 0 and "line 5: hash" in done.stderr


def test_the_readme_script_refuses_another_commitment(export: tuple[Path, str], tmp_path: Path) -> None:
    log, _ = export
    done = check(tmp_path, log, "0" * 64)
    assert done.returncode != 0 and "seed commitment" in done.stderr

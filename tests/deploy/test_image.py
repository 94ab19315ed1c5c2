"""`make image` (scripts/image.sh) builds with the first engine here that can build, says which, and passes podman
`--format docker` so that the image keeps its HEALTHCHECK; ENGINE= names the engine; with none that can build, it
says so and how to name one. Checked with stand-ins for docker and podman whose `info` answers or fails and whose
`build` records its arguments. Where a real engine can build, the image is built twice: a change to the code is in
the second image, as is the HEALTHCHECK."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.deploy.test_container import ROOT, copied_paths

SCRIPT = ROOT / "scripts" / "image.sh"
STANDIN = """#!/bin/sh
case "$1" in
    info) exit {info} ;;
    build) shift; printf '%s\\n' "$@" > "{record}"; exit 0 ;;
esac
exit 2
"""


class Engines:
    """A directory of stand-ins for docker and podman, to put first on PATH."""

    def __init__(self, directory: Path) -> None:
        self.bin = directory / "bin"
        self.bin.mkdir()
        self.directory = directory

    def add(self, name: str, can_build: bool) -> None:
        path = self.bin / name
        path.write_text(STANDIN.format(info=0 if can_build else 1, record=self.directory / f"{name}.build"))
        path.chmod(0o755)

    def built(self, name: str) -> list[str] | None:
        """The arguments `<name> build` was given, or None if it was not run."""
        record = self.directory / f"{name}.build"
        return record.read_text().splitlines() if record.exists() else None

    def choose(self, engine: str | None = None) -> subprocess.CompletedProcess[str]:
        """scripts/image.sh with only the stand-ins on PATH (and ENGINE= if given)."""
        env = {"PATH": str(self.bin), **({"ENGINE": engine} if engine else {})}
        return subprocess.run([SCRIPT, "-t", "syndicate:test", "context"], env=env, capture_output=True, text=True)


@pytest.fixture
def engines(tmp_path: Path) -> Engines:
    return Engines(tmp_path)


def test_with_a_docker_that_cannot_build_podman_builds_in_dockers_format(engines: Engines) -> None:
    engines.add("docker", can_build=False)  # a docker client with no daemon
    engines.add("podman", can_build=True)
    chosen = engines.choose()
    assert chosen.returncode == 0, chosen.stderr
    assert engines.built("podman") == ["--format", "docker", "-t", "syndicate:test", "context"]
    assert engines.built("docker") is None
    assert "building with podman" in chosen.stdout and "'docker info' fails" in chosen.stdout


def test_podman_alone_builds(engines: Engines) -> None:
    engines.add("podman", can_build=True)
    assert engines.choose().returncode == 0
    assert engines.built("podman") == ["--format", "docker", "-t", "syndicate:test", "context"]


def test_a_docker_that_can_build_comes_first(engines: Engines) -> None:
    engines.add("docker", can_build=True)
    engines.add("podman", can_build=True)
    chosen = engines.choose()
    assert chosen.returncode == 0, chosen.stderr
    assert engines.built("docker") == ["-t", "syndicate:test", "context"]
    assert engines.built("podman") is None
    assert "building with docker" in chosen.stdout


def test_engine_names_the_engine(engines: Engines) -> None:
    engines.add("docker", can_build=True)
    engines.add("podman", can_build=True)
    chosen = engines.choose("podman")
    assert chosen.returncode == 0, chosen.stderr
    assert engines.built("podman") == ["--format", "docker", "-t", "syndicate:test", "context"]
    assert engines.built("docker") is None
    assert "building with podman (ENGINE=podman)" in chosen.stdout


def test_an_engine_named_that_cannot_build_builds_nothing_and_says_why(engines: Engines) -> None:
    engines.add("docker", can_build=False)
    engines.add("podman", can_build=True)
    chosen = engines.choose("docker")
    assert chosen.returncode == 1
    assert "ENGINE=docker cannot build here: 'docker info' fails" in chosen.stderr
    assert engines.built("docker") is None and engines.built("podman") is None, "no other engine instead"


def test_with_no_engine_that_can_build_it_says_so_and_how_to_name_one(engines: Engines) -> None:
    engines.add("docker", can_build=False)
    chosen = engines.choose()
    assert chosen.returncode == 1 and engines.built("docker") is None
    assert chosen.stderr.splitlines() == [
        "make image: no container engine here can build:",
        "  docker: 'docker info' fails; is its daemon or socket up?",
        "  podman: not installed",
        "Start docker's daemon or install podman, or name the engine: make image ENGINE=docker|podman",
    ]


def test_make_image_tags_labels_and_hands_podman_its_format(engines: Engines) -> None:
    engines.add("docker", can_build=False)
    engines.add("podman", can_build=True)
    env = {**os.environ, "PATH": f"{engines.bin}{os.pathsep}{os.environ['PATH']}"}  # ahead of any real engine
    made = subprocess.run(["make", "-C", ROOT, "image"], env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    args = engines.built("podman")
    assert args and args[:2] == ["--format", "docker"] and args[-1] == "."
    assert {"-t syndicate:latest", "-t syndicate:0.1.0", "--build-arg VERSION=0.1.0"} <= {
        f"{flag} {value}" for flag, value in itertools.pairwise(args)
    }
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    assert f"REVISION={revision.strip()}" in args


@pytest.fixture(params=["docker", "podman"])
def engine(request: pytest.FixtureRequest) -> str:
    """An engine that can build here, or the test is skipped."""
    name: str = request.param
    if not shutil.which(name) or subprocess.run([name, "info"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip(f"`{name} info` fails or there is no {name}: it cannot build here")
    return name


@pytest.mark.timeout(1800)  # the first build downloads the base image and the dependencies
def test_a_rebuild_after_a_change_to_the_code_has_the_new_code_and_the_healthcheck(engine: str, tmp_path: Path) -> None:
    context = tmp_path / "context"
    context.mkdir()
    for name in [*copied_paths(), "Dockerfile", ".dockerignore"]:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, context / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, context / name)
    package = context / "service" / "__init__.py"
    original = package.read_text()
    tag = f"syndicate-test:{uuid.uuid4().hex[:12]}"

    def build_with(marker: str) -> str:
        """The marker the image built from the code with this marker in it has."""
        package.write_text(f"{original}\nMARKER = {marker!r}\n")
        built = subprocess.run([SCRIPT, "-t", tag, context], env={**os.environ, "ENGINE": engine}, capture_output=True)
        assert built.returncode == 0, built.stderr[-3000:]
        ran = subprocess.run(
            [engine, "run", "--rm", tag, "python", "-c", "import service; print(service.MARKER)"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert ran.returncode == 0, ran.stderr
        return ran.stdout.strip()

    try:
        first, second = f"{tag} first", f"{tag} second"  # never in an engine's cache from an earlier run
        assert build_with(first) == first
        assert build_with(second) == second, "the rebuild installed the changed code, not a cached layer's"
        [image] = json.loads(subprocess.run([engine, "image", "inspect", tag], capture_output=True, check=True).stdout)
        healthcheck = (image.get("Config") or {}).get("Healthcheck") or image.get("Healthcheck")  # docker's, podman's
        assert healthcheck and "/livez" in " ".join(healthcheck["Test"]), image
    finally:
        subprocess.run([engine, "image", "rm", "--force", tag], capture_output=True)

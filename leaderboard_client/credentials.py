"""Tokens kept per server in ``~/.config/gec-submit/credentials.json`` (mode 0600)."""

from __future__ import annotations

import json
import os
from pathlib import Path


def store_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "gec-submit" / "credentials.json"


def load() -> dict:
    path = store_path()
    return json.loads(path.read_text()) if path.exists() else {}


def save_token(server: str, token: str) -> Path:
    """Remember ``token`` for ``server`` and make it the default server."""
    data = load()
    data.setdefault("tokens", {})[server] = token
    data["default_server"] = server
    return store(data)


def forget_token(server: str) -> bool:
    """Drop the token kept for ``server``; False when none was kept."""
    data = load()
    if data.get("tokens", {}).pop(server, None) is None:
        return False
    store(data)
    return True


def store(data: dict) -> Path:
    path = store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        json.dump(data, out, indent=1)
    return path


def default_server() -> str | None:
    return os.environ.get("GEC_SERVER") or load().get("default_server")


def token_for(server: str) -> str | None:
    return os.environ.get("GEC_TOKEN") or load().get("tokens", {}).get(server)

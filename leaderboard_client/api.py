"""The REST API as plain calls: JSON in and out, multipart uploads, token auth."""

from __future__ import annotations

import json
import mimetypes
import urllib.error
import urllib.parse
import urllib.request
import uuid
from email.message import Message
from pathlib import Path

from .version import __version__


class ApiError(Exception):
    """An answer other than 2xx: its status and the platform's message(s)."""

    def __init__(self, status: int, body: object):
        self.status, self.body = status, body
        super().__init__(f"HTTP {status}: {describe(body)}")

    @property
    def problems(self) -> list[dict]:
        """The line-numbered problems of a rejected file (``{"errors": [{"line", "message"}]}``)."""
        return self.body.get("errors", []) if isinstance(self.body, dict) else []


def describe(body: object) -> str:
    if isinstance(body, dict):
        if body.get("errors"):
            return "; ".join(
                f"line {e['line']}: {e['message']}" if e.get("line") else e["message"] for e in body["errors"]
            )
        if "detail" in body:
            return str(body["detail"])
    return str(body)[:500]


def multipart(fields: dict[str, str], file_field: str, path: Path) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body with ``fields`` and one file."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    kind = mimetypes.guess_type(path.name)[0] or "text/plain"
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; '
        f'filename="{path.name}"\r\nContent-Type: {kind}\r\n\r\n'.encode()
    )
    parts.append(path.read_bytes())
    parts.append(f"\r\n--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class Client:
    def __init__(self, server: str, token: str | None = None, timeout: float = 60):
        self.server, self.token, self.timeout = server.rstrip("/"), token, timeout

    def request(
        self,
        method: str,
        path: str,
        *,
        query: dict | None = None,
        body: bytes | None = None,
        content_type: str | None = None,
    ) -> tuple[bytes, Message]:
        """The answer's body and headers; :class:`ApiError` for any status but 2xx."""
        url = f"{self.server}{path}"
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Accept": "application/json", "User-Agent": f"gec-submit/{__version__}"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.read(), response.headers
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = raw.decode("utf-8", "replace")
            raise ApiError(error.code, parsed) from None

    def json(self, method: str, path: str, **kwargs) -> object:
        raw, _ = self.request(method, path, **kwargs)
        return json.loads(raw) if raw else None

    def obtain_token(self, username: str, password: str) -> str:
        body = urllib.parse.urlencode({"username": username, "password": password}).encode()
        self.token = None  # a stale token is no credential for logging in
        return self.json("POST", "/api/auth/token/", body=body, content_type="application/x-www-form-urlencoded")[
            "token"
        ]

    def revoke_token(self) -> None:
        """The server forgets the token this client holds: it answers 401 from now on."""
        self.request("DELETE", "/api/auth/token/")

    def tasks(self) -> list[dict]:
        return self.json("GET", "/api/tasks/")

    def task(self, slug: str) -> dict:
        return self.json("GET", f"/api/tasks/{slug}/")

    def submit(
        self,
        slug: str,
        path: Path,
        *,
        system_name: str,
        phase: str | None = None,
        description: str = "",
        track: str = "",
        corpus: str = "",
    ) -> dict:
        fields = {"system_name": system_name, "description": description, "track": track}
        if phase:
            fields["phase"] = phase
        if corpus:
            fields["corpus"] = corpus
        body, content_type = multipart(fields, "file", path)
        return self.json("POST", f"/api/tasks/{slug}/submissions/", body=body, content_type=content_type)

    def submission(self, submission_id: int) -> dict:
        return self.json("GET", f"/api/submissions/{submission_id}/")

    def status(self, submission_id: int) -> dict:
        """``{"id", "status", "finished", "progress"}``: the small answer to poll."""
        return self.json("GET", f"/api/submissions/{submission_id}/status/")

    def my_submissions(self, slug: str | None = None, phase: str | None = None) -> list[dict]:
        return self.json("GET", "/api/me/submissions/", query={"task": slug, "phase": phase})["submissions"]

    def choose(self, submission_id: int) -> dict:
        return self.json("POST", f"/api/submissions/{submission_id}/choose/")

    def sentences(self, submission_id: int, fmt: str, corpus: str | None = None) -> bytes:
        return self.request(
            "GET", f"/api/submissions/{submission_id}/sentences/", query={"format": fmt, "corpus": corpus}
        )[0]

    def leaderboard(self, slug: str, metric: str | None = None, phase: str | None = None) -> dict:
        return self.json("GET", f"/api/tasks/{slug}/leaderboard/", query={"metric": metric, "phase": phase})

    def phase_input(self, slug: str, phase: str | None = None) -> tuple[bytes, str]:
        """The phase's inputs and the file name the server gives them (a ``.zip`` when
        the phase has several corpora)."""
        data, headers = self.request("GET", f"/api/tasks/{slug}/input/", query={"phase": phase})
        return data, attachment_name(headers) or f"{slug}-{phase or 'input'}.src.txt"

    def terms(self, slug: str) -> dict:
        return self.json("GET", f"/api/tasks/{slug}/terms/")

    def accept_terms(self, slug: str, version: str) -> dict:
        body = urllib.parse.urlencode({"version": version}).encode()
        return self.json(
            "POST", f"/api/tasks/{slug}/terms/", body=body, content_type="application/x-www-form-urlencoded"
        )


def attachment_name(headers: Message) -> str:
    """The bare file name of a ``Content-Disposition: attachment; filename=...`` header."""
    message = Message()
    message["Content-Disposition"] = headers.get("Content-Disposition", "")
    return Path(message.get_filename() or "").name

"""An oversized upload is refused before its body is read (a 500 MB body cost
5.7 s and 300 MB of the web worker before its 413).

The request body is a payload that counts the bytes the server reads: a Content-Length
over the limit is a 413 without one byte read; a file past the limit inside an
acceptable Content-Length is stopped while it streams in, long before its end.
"""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import BOUNDARY, MULTIPART_CONTENT, FakePayload, encode_multipart

from leaderboard.models import Submission

from .conftest import make_user

API, PAGE = "/api/tasks/small/submissions/", "/tasks/small/submit/"


class CountingPayload(FakePayload):
    def __init__(self, content: bytes):
        super().__init__(content)
        self.bytes_read = 0

    def read(self, *args, **kwargs):
        chunk = super().read(*args, **kwargs)
        self.bytes_read += len(chunk)
        return chunk

    def readline(self, *args, **kwargs):
        line = super().readline(*args, **kwargs)
        self.bytes_read += len(line)
        return line


def multipart(file_bytes: int) -> bytes:
    return encode_multipart(
        BOUNDARY, {"system_name": "big", "file": SimpleUploadedFile("big.txt", b"a\n" * (file_bytes // 2))}
    )


def post(client, url: str, payload: CountingPayload, content_length: int):
    environ = {"wsgi.input": payload, "CONTENT_LENGTH": str(content_length), "CONTENT_TYPE": MULTIPART_CONTENT}
    return client.generic("POST", url, b"", content_type=MULTIPART_CONTENT, **environ)


def page_client(client):
    client.force_login(make_user("bob"))
    return client


def test_a_500_mb_content_length_is_refused_without_reading_the_body(phase, alice_client, client):
    for session, url in ((alice_client, API), (page_client(client), PAGE)):
        payload = CountingPayload(multipart(1000))
        response = post(session, url, payload, 500 * 1024 * 1024)
        assert response.status_code == 413, url
        assert payload.bytes_read == 0
    assert "bytes" in response.content.decode() and not Submission.objects.exists()


def test_a_file_past_the_limit_stops_while_it_streams_in(phase, alice_client, client):
    phase.max_upload_mb = 0.05  # 52 kB; the Content-Length allowance for the form is 1 MB
    phase.save()
    body = multipart(900_000)
    for session, url in ((alice_client, API), (page_client(client), PAGE)):
        payload = CountingPayload(body)
        response = post(session, url, payload, len(body))
        assert response.status_code == 413, url
        assert payload.bytes_read < 250_000 < len(body)
    assert "52428 bytes" in response.content.decode() and not Submission.objects.exists()


def test_a_file_within_the_limit_is_read_as_before(phase, small_texts, alice_client):
    body = encode_multipart(
        BOUNDARY, {"system_name": "T5", "file": SimpleUploadedFile("T5.txt", small_texts["T5"].encode())}
    )
    response = post(alice_client, API, CountingPayload(body), len(body))
    assert response.status_code == 201, response.content

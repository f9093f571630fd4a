"""The API's refusals are JSON in its two documented shapes: ``{"detail": ...}`` and, for
a 400, ``{"errors": [{"line", "message"}]}``; an unknown URL under /api/ too."""

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db  # an anonymous API request takes a token from its rate bucket


def test_an_unknown_api_url_is_a_json_404(client):
    response = client.get("/api/anything-unknown")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert "/api/anything-unknown" in response.json()["detail"]


def test_an_unknown_page_is_still_the_sites_404_page(client):
    response = client.get("/anything-unknown/")
    assert response.status_code == 404 and "There is nothing here" in response.content.decode()


def test_a_wrong_password_is_a_401_and_a_missing_field_a_400_with_its_problems(client):
    User.objects.create_user("ann", password="right-password")
    wrong = client.post("/api/auth/token/", {"username": "ann", "password": "wrong"})
    assert wrong.status_code == 401 and wrong.json() == {"detail": "Unable to log in with provided credentials."}
    missing = client.post("/api/auth/token/", {"username": "ann"}, content_type="application/json")
    assert missing.status_code == 400 and missing.json() == {
        "errors": [{"line": 0, "message": "password: This field is required."}]
    }


def test_a_body_that_is_not_json_is_a_400_in_the_same_shape(client):
    response = client.post("/api/auth/token/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["message"].startswith("JSON parse error")

"""The API's refusals are JSON in the shapes its schema documents, for every operation,
including one added later without a word about errors (leaderboard/api/schema.py)."""
import pytest
from django.contrib.auth.models import User
from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from rest_framework import generics, serializers

pytestmark = pytest.mark.django_db  # an anonymous API request takes a token from its rate bucket

COMMON = {"400", "401", "403", "429"}


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
    assert missing.status_code == 400 and missing.json() == {"errors": [{"line": 0, "message": "password: This field is required."}]}


def test_a_body_that_is_not_json_is_a_400_in_the_same_shape(client):
    response = client.post("/api/auth/token/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["message"].startswith("JSON parse error")


def test_every_operation_documents_the_common_refusals(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for route, operations in schema["paths"].items():
        for method, operation in operations.items():
            expected = COMMON | ({"404"} if "{" in route else set())
            assert expected <= set(operation["responses"]), (method, route)
            assert "Retry-After" in operation["responses"]["429"]["headers"]


class Thing(serializers.Serializer):
    name = serializers.CharField()


class Undocumented(generics.RetrieveAPIView):
    serializer_class = Thing


def test_an_endpoint_added_without_schema_annotations_gets_them_too():
    generator = SchemaGenerator(patterns=[path("api/things/<int:pk>/", Undocumented.as_view())])
    responses = generator.get_schema(request=None, public=True)["paths"]["/api/things/{id}/"]["get"]["responses"]
    assert COMMON | {"200", "404"} == set(responses)
    assert responses["401"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Detail"}
    assert responses["400"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}

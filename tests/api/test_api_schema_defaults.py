"""Every operation's schema documents the refusals every view can give, and an endpoint
added later gets them, and the shared ``phase`` description, without saying so
(leaderboard/api/schema.py)."""

import pytest
from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers

pytestmark = pytest.mark.django_db  # an anonymous API request takes a token from its rate bucket

COMMON = {"400", "401", "403", "429"}


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

    @extend_schema(parameters=[OpenApiParameter("phase", str)])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


def test_an_endpoint_added_later_gets_the_refusals_and_the_shared_phase():
    generator = SchemaGenerator(patterns=[path("api/things/<int:pk>/", Undocumented.as_view())])
    operation = generator.get_schema(request=None, public=True)["paths"]["/api/things/{id}/"]["get"]
    responses = operation["responses"]
    assert COMMON | {"200", "404"} == set(responses)
    assert responses["401"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Detail"}
    assert responses["400"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    (phase,) = (p for p in operation["parameters"] if p["name"] == "phase")
    assert (
        phase["schema"]["pattern"] == "^(?:[-a-zA-Z0-9_]+)?$"
        and phase["schema"]["maxLength"] == 32
        and phase["allowEmptyValue"]
    )

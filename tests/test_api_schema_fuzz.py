"""Schemathesis against ``/api/schema/``: no API operation answers a 500, whatever the
documented parameters hold (valid and invalid values alike).

Bounded and repeatable: a few derandomized examples per operation (hypothesis's fixed
seed), served in-process through the WSGI application on the test database. The path's
task slug is the real task's, so query parameters reach the views instead of a 404;
each case is asked by a visitor and by the task's organizer (furthest into every view).
"""
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_schema(insight_task):
    """The schema, served by the WSGI application. As Django's test client does, the
    application keeps the test's database connection (and so its transaction) open."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def organizer_token(insight_task):
    return Token.objects.get_or_create(user=insight_task["organizer"])[0].key


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=6, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_operation_answers_a_server_error(case, organizer_token):
    if "slug" in (case.path_parameters or {}):
        case.path_parameters["slug"] = "insight"
    case.call_and_validate(checks=[not_a_server_error])
    case.call_and_validate(headers={"Authorization": f"Token {organizer_token}"}, checks=[not_a_server_error])

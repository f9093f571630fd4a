"""The OpenAPI description of the API (``/api/schema/``), made to say what the API answers.

:class:`ApiSchema` is every API view's schema class (``DEFAULT_SCHEMA_CLASS``). It adds
to each operation the refusals every view can give, so an endpoint added later has them
documented without a word in its view: 400 (a malformed parameter or body,
``{"errors": [...]}``), 401 (a bad or revoked token), 403, 404 (operations with path
parameters) and 429 (with ``Retry-After``). A view's own ``@extend_schema`` entry for one of
these statuses wins. The parameter helpers describe what :mod:`leaderboard.params`
accepts, so a value the schema allows is one the view takes; ``phase`` and ``metric``
declared as bare strings get their shared description. ``tests/api/test_api_schema_fuzz.py``
checks every operation against a live server with schemathesis.
"""

from __future__ import annotations

import re

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer

from .. import params
from .serializers import DetailSerializer, ErrorSerializer

# 403 and 429 come in both shapes: DRF's refusals (permission, CSRF, throttles) as
# ``detail``, the upload's own (closed phase, team rules, over a limit) as ``errors``.
REFUSAL = PolymorphicProxySerializer(
    component_name="Refusal", serializers=[DetailSerializer, ErrorSerializer], resource_type_field_name=None
)

COMMON_ERRORS = {
    "400": OpenApiResponse(
        ErrorSerializer,
        description="A malformed or unknown parameter or body: every problem, and the valid values when they are few.",
    ),
    "401": OpenApiResponse(
        DetailSerializer,
        description="The token is unknown or revoked, or this operation needs a user and none was given.",
    ),
    "403": OpenApiResponse(REFUSAL, description="This user may not do this (or see this yet)."),
    "429": OpenApiResponse(
        REFUSAL,
        description="Too many requests (anonymous rate, password attempts, a phase's upload limits); try again after "
        "Retry-After seconds when given.",
    ),
}
NOT_FOUND = OpenApiResponse(DetailSerializer, description="No such object, or one this user may not know of.")

RESPONSE_HEADERS = [
    OpenApiParameter(
        "Retry-After",
        int,
        OpenApiParameter.HEADER,
        response=[429],
        required=False,
        description="seconds to wait (throttles)",
    ),
    OpenApiParameter(
        "WWW-Authenticate", str, OpenApiParameter.HEADER, response=[401], required=False, description="Token"
    ),
]


# -- query parameters, as leaderboard.params reads them -------------------------------------

NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"


def text_parameter(
    name: str, description: str, *, max_length: int = 100, pattern: re.Pattern | None = None
) -> OpenApiParameter:
    """:func:`leaderboard.params.text`: at most ``max_length`` characters, no control characters."""
    regex = f"^(?:{pattern.pattern})?$" if pattern is not None else NO_CONTROL_CHARACTERS  # empty: not given
    return OpenApiParameter(
        name, {"type": "string", "maxLength": max_length, "pattern": regex}, description=description
    )


def number_parameter(
    name: str, description: str, *, minimum: int = 0, maximum: int = params.LARGEST
) -> OpenApiParameter:
    """:func:`leaderboard.params.number`."""
    return OpenApiParameter(name, {"type": "integer", "minimum": minimum, "maximum": maximum}, description=description)


def choice_parameter(name: str, choices, description: str = "") -> OpenApiParameter:
    """:func:`leaderboard.params.choice`."""
    return OpenApiParameter(name, str, enum=list(choices), description=description)


PHASE = text_parameter(
    "phase",
    "the phase key, e.g. dev or test (default: the current phase); 404 when the task has none",
    max_length=32,
    pattern=params.SLUG,
)
METRIC = text_parameter(
    "metric",
    "a score path of the task's metrics (its score_paths), e.g. errant.cs.f, gotoscorer.f; 400 with the valid "
    "paths otherwise",
    max_length=200,
)
# Read the same way by every view: one declared as a bare string gets this description.
SHARED_QUERY = {"phase": PHASE, "metric": METRIC}


class ApiSchema(AutoSchema):
    def get_operation(self, *args, **kwargs):
        """Every optional query parameter is read through :mod:`leaderboard.params`, where an
        empty value is the same as none: ``allowEmptyValue``; ``phase`` and ``metric`` as
        declared here unless the view says more than "a string"."""
        operation = super().get_operation(*args, **kwargs)
        for parameter in (operation or {}).get("parameters", []):
            if parameter["in"] != "query":
                continue
            shared = SHARED_QUERY.get(parameter["name"])
            if shared is not None and parameter.get("schema") == {"type": "string"}:
                parameter["schema"] = dict(shared.type)
                parameter["description"] = parameter.get("description") or shared.description
            if not parameter.get("required"):
                parameter["allowEmptyValue"] = True
        return operation

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        errors = dict(COMMON_ERRORS)
        if "{" in self.path:
            errors["404"] = NOT_FOUND
        for code, response in errors.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(response, code, direction=direction)
        return responses

    def get_override_parameters(self):
        return [*super().get_override_parameters(), *RESPONSE_HEADERS]

    def get_auth(self):
        """A view with no permission classes (the token endpoint) is open to all."""
        auths = super().get_auth()
        if not self.view.get_permissions() and {} not in auths:
            auths.append({})
        return auths


def file_responses(formats: dict[str, str]) -> dict:
    """A 200 in each format's content type (``{format: content type}``, as
    :data:`leaderboard.insights.exports.FORMATS`): a JSON document or a text file."""
    responses = {}
    for content_type in formats.values():
        media_type = content_type.split(";")[0].strip()
        responses[(200, media_type)] = OpenApiTypes.OBJECT if media_type == "application/json" else OpenApiTypes.STR
    return responses

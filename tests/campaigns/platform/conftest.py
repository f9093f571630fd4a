"""The platform area's fixtures (tests/platform/conftest.py) for the campaigns' platform tests."""

from tests.platform.conftest import workers  # noqa: F401  (a fixture, found by its name)

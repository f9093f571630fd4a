"""The proxy tests use the platform tests' fixtures (tests/platform/conftest.py)."""

from tests.platform.conftest import *  # noqa: F403

"""The web fixtures for the owners' features (a test client over the test's database)."""

from tests.web.conftest import client, make_client  # noqa: F401

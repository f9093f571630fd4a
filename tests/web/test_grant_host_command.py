"""``manage.py grant_host <username>`` gives (and ``--revoke`` takes) the permission to host tasks."""

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from leaderboard import access

pytestmark = pytest.mark.django_db


def test_grant_and_revoke():
    User.objects.create_user("hannah")
    call_command("grant_host", "hannah")
    assert access.may_host(User.objects.get(username="hannah"))
    call_command("grant_host", "hannah", "--revoke")
    assert not access.may_host(User.objects.get(username="hannah"))
    with pytest.raises(CommandError, match="no user nobody"):
        call_command("grant_host", "nobody")

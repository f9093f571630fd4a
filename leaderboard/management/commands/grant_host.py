"""``manage.py grant_host <username>``: let a user create and host shared tasks."""

from django.contrib.auth.models import Permission, User
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Give a user the permission to create and host shared tasks (leaderboard.host_tasks); --revoke takes it away."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--revoke", action="store_true")

    def handle(self, username, revoke, **_):
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username}")
        permission = Permission.objects.get(codename="host_tasks", content_type__app_label="leaderboard")
        (user.user_permissions.remove if revoke else user.user_permissions.add)(permission)
        self.stdout.write(f"{username} {'may no longer' if revoke else 'may now'} create and host shared tasks")

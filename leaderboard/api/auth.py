"""Token authentication that refuses expired tokens with a message saying what to do."""

from django.conf import settings
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from ..services.accounts import tokens


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if tokens.is_expired(token):
            raise AuthenticationFailed(
                f"this token expired {settings.GEC_TOKEN_TTL_DAYS:g} days after it was issued; "
                "ask for a new one (POST /api/auth/token/ with your username and password, or gec-submit login)"
            )
        return user, token

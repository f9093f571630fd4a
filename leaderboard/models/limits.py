"""Rate limits kept in the database (healthchecks' TokenBucket), so they hold across
every web process and host, unlike a per-process cache."""

from __future__ import annotations

import hashlib

from django.db import models, transaction
from django.utils import timezone


class RateBucket(models.Model):
    """A token bucket: ``capacity`` tokens, refilled evenly over ``per_seconds``; an
    action takes one, and is refused while the bucket is empty."""

    key = models.CharField(
        max_length=100, unique=True, help_text="scope and a hash of who acts (an address, a username)"
    )
    tokens = models.FloatField()
    updated_at = models.DateTimeField()

    def __str__(self):
        return f"{self.key}: {self.tokens:.1f}"

    @staticmethod
    def key_for(scope: str, who: str) -> str:
        """Who acts is hashed: the table holds no address or username."""
        return f"{scope}:{hashlib.sha256(who.encode()).hexdigest()[:64]}"

    @classmethod
    def take(cls, key: str, capacity: int, per_seconds: float) -> bool:
        now = timezone.now()
        with transaction.atomic():
            bucket, _ = cls.objects.select_for_update().get_or_create(
                key=key, defaults={"tokens": capacity, "updated_at": now}
            )
            refilled = (now - bucket.updated_at).total_seconds() * capacity / per_seconds
            bucket.tokens = min(capacity, bucket.tokens + max(refilled, 0.0))
            allowed = bucket.tokens >= 1
            if allowed:
                bucket.tokens -= 1
            bucket.updated_at = now
            bucket.save(update_fields=["tokens", "updated_at"])
        return allowed

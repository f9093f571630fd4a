"""``gec-submit``: take part in a GEC shared task from a remote machine.

Speaks only the platform's public REST API (docs/contracts.md section 3), with the Python
standard library alone, so it installs anywhere in seconds:
``pip install <repository>`` gives the ``gec-submit`` command; ``python -m
leaderboard_client`` works from a checkout.
"""

from .version import __version__

__all__ = ["__version__"]

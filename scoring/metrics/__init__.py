"""Metric registry: importing this package registers every metric, in display order."""

from . import errant  # noqa: F401, I001  (display order, not alphabetical)
from . import cleme  # noqa: F401
from . import cleme2  # noqa: F401
from . import gotoscorer  # noqa: F401
from . import usim  # noqa: F401
from . import m2  # noqa: F401
from . import gleu  # noqa: F401
from . import scribendi  # noqa: F401  (reference-free: a column group of its own)
from . import some  # noqa: F401
from . import impara  # noqa: F401
from .base import REGISTRY, Metric, register

__all__ = ["REGISTRY", "Metric", "register"]

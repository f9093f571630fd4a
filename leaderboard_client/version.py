"""The client's version, apart from the package's ``__init__`` so its modules never import
their own package back (docs/architecture.md)."""

__version__ = "1.0.0"

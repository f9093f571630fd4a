"""The library's version, in its own module so that modules inside the package can read it
without importing the package's ``__init__`` back."""

__version__ = "0.1.0"

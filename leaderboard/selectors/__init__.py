"""Selectors: the rows a page, an API class or a form reads, one module per domain.

Views and API classes never build querysets (the HackSoft styleguide's selectors): they
ask these functions, or the read rules (``access``, ``standings``, ``insights``), so every
query the web runs is written, tuned and found in one place.
"""

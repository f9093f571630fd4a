"""The campaign modes, registered as the metric library registers its metrics (``scoring/registry.py``).

A mode is one module of :mod:`leaderboard.campaigns.modes` whose :class:`CampaignMode`
says everything that differs between modes: how its screens are planned (:meth:`plan`),
how an annotator's judgment is checked and stored (:meth:`record`), how its figures are
computed (:meth:`results`) and which columns a published campaign adds to the board
(:meth:`columns`). The rest of the slice asks the campaign's mode (:func:`mode_of`)
instead of comparing mode names, so a new mode is one new module.

This module sits low (the board's columns are read here); the modes plan and rank, so
they import the services. :func:`mode_named` imports :mod:`leaderboard.campaigns.modes`
on first use, as Django's admin discovers its registrations, so asking for a mode never
makes a read import the services.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, ClassVar

REGISTRY: dict[str, CampaignMode] = {}


@dataclass(frozen=True)
class BoardColumn:
    """One column a published campaign adds to the board: its name, the figure its cells
    show (``"EW"``, ``"z"``), the scale it is of (a rating campaign's) and its cells by
    the campaign's system label."""

    name: str
    figure: str
    cells: dict[str, Any]
    scale: str | None = None


class CampaignMode:
    """What a mode does; a subclass with a ``name`` registers itself."""

    name: ClassVar[str] = ""
    rates: ClassVar[bool] = False  # annotators rate each output on scales (else they rank the outputs)
    marks_edits: ClassVar[bool] = False  # annotators mark each listed edit valid or invalid first
    template: ClassVar[str] = "campaigns/judge.html"  # the annotator's page

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            REGISTRY[cls.name] = cls()

    def plan(self, campaign) -> str:
        """Sample the campaign's screens and queues (the worker's preparation)."""
        raise NotImplementedError

    def record(self, campaign, user, data: dict):
        """Check ``user``'s judgment of a screen (the API's validated body) and store it."""
        raise NotImplementedError

    def results(self, campaign) -> dict:
        """The campaign's figures as JSON (the worker's ranking)."""
        raise NotImplementedError

    def columns(self, name: str, scales: list[dict] | None, systems: dict) -> list[BoardColumn]:
        """The board's columns of published campaign ``name`` from its stored ``systems`` figures."""
        raise NotImplementedError


def discovered() -> dict[str, CampaignMode]:
    """Every registered mode (the modes' package imported once)."""
    if not REGISTRY:
        import_module("leaderboard.campaigns.modes")
    return REGISTRY


def mode_named(name: str) -> CampaignMode:
    """The mode called ``name``; ``KeyError`` for an unknown one (a stored campaign's mode is known)."""
    return discovered()[name]


def find_mode(name: object) -> CampaignMode | None:
    """The mode called ``name``, or None (an organizer's setting, checked)."""
    return discovered().get(name) if isinstance(name, str) else None


def mode_of(campaign) -> CampaignMode:
    """The campaign's mode: the one place its name is looked up."""
    return mode_named(campaign.mode)


def rating_modes() -> list[str]:
    """The names of the modes whose annotators rate (a query's filter)."""
    return [name for name, mode in discovered().items() if mode.rates]

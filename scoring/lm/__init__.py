"""Reference-free metrics that run a language model (Scribendi, SOME, IMPARA) and what they share.

:mod:`scoring.lm.runtime` resolves settings, device, dtype and batch size and loads an
organizer's local model; each metric module registers itself from :mod:`scoring.metrics`.
"""

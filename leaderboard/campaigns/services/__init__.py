"""Human evaluation campaigns: create, prepare, judge, rank, import, publish.

Modules: :mod:`.create` (an organizer's settings, checked), :mod:`.sampling` (which
screens, seeded), :mod:`.controls` (degraded outputs, the sign test), :mod:`.prepare`
(the worker's sampling and edits), :mod:`.judging` (an annotator's judgment),
:mod:`.human_ranking` (the worker's figures), :mod:`.imports` (Appraise XML in),
:mod:`.publish`, :mod:`.jobs` (the worker's entry), :mod:`.invitations` (invite,
accept, reassign, remind), :mod:`.edit_marks` (mode edits' marks per system), and :mod:`.judgments` (human
judgments attached to a phase from files, for the meta-evaluation).
"""

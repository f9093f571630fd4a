"""ERRANT's engine, re-implemented for speed and kept equal to errant 3.0.2: alignment
(Python and C kernels), merging, edit extraction, error types, gold re-typing and F-beta."""

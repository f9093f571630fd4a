"""Work done for a board's readers in the worker: its significance groups (:mod:`.ties`)."""

"""Scoring a submission (the service every worker, thread and test calls), what an upload
is estimated to cost and the fair queue that sends it, why a worker stopped, and rescoring a task."""

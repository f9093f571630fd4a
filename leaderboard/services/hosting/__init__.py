"""Hosting a task: creating it and its phases, the organizers' pages and files, their
actions on a phase (freeze, reveal, rescore) and their jobs run in the queue."""

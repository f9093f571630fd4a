"""Write paths: each function is one thing the platform does, callable from a view, a
command, a Celery task or a test alike."""

"""The slice's REST API: campaigns, judgments, invitations, the meta-evaluation (registered in ``api/urls.py``)."""

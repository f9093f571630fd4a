"""The slice's pages: campaigns, the annotator's screens, invitations, the meta-evaluation (in ``urls.py``)."""

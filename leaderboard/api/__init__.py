"""The REST API of docs/contracts.md section 3 (Django REST Framework, token auth)."""

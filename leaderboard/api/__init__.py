"""The REST API of CONTRACTS.md section 3 (Django REST Framework, token auth)."""

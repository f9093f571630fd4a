"""Server-rendered pages: thin views over the same services and read paths as the API."""

"""The slice's read modules that are not figures: the rows a page or an API class reads."""

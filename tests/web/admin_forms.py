"""An admin change form posted as a browser would: every field as the page filled it,
then the changes a test makes (so a test exercises the real admin, inlines and all)."""

from html.parser import HTMLParser


class FormFields(HTMLParser):
    """The named fields of a page's forms with their current values (checked boxes,
    selected options, textareas), in order; several values for a multiple select."""

    def __init__(self):
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button", "file"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.fields.append((name, attrs.get("value") or ("on" if attrs.get("type") == "checkbox" else "")))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.fields.append((self._select, attrs.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_data(self, data):
        if self._textarea:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            self.fields.append((self._textarea, "".join(self._text).lstrip("\n")))
            self._textarea = None


def post_change_form(client, url: str, changes: dict):
    """GET the admin page at ``url``, change the named fields, POST it back; a value of
    None unchecks a box."""
    parser = FormFields()
    parser.feed(client.get(url).content.decode())
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        data.setdefault(name, []).append(value)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = [value]
    return client.post(url, data)

"""Where the mails a page announces go (:func:`leaderboard.services.accounts.signup.mails_printed`)."""

from django import template

from ..services.accounts.signup import mails_printed

register = template.Library()


@register.inclusion_tag("registration/_mail_printed.html")
def mail_printed_note():
    """A note for the pages that say "check your email": without a mail server, the
    link is in the server's terminal."""
    return {"printed": mails_printed()}

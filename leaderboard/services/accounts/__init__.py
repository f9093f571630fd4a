"""Accounts: sign-up and profile changes confirmed by e-mail, API tokens, and the e-mails
that tell a team its submission was scored or approved."""

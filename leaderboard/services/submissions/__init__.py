"""A team's uploads: accepted (checked, stored, queued after the commit) and its own
actions on them (choose, withdraw, restore, delete)."""

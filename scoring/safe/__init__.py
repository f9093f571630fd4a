"""Values from users made safe at the edges: integers parsed from ASCII digits only, and
spreadsheet cells that cannot run as formulas."""

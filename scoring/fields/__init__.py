"""One field of a file or a form, read or written the same way everywhere: whole numbers
(:mod:`.integers`) and spreadsheet cells (:mod:`.spreadsheet`)."""

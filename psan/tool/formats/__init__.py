"""Formats in and out: file formats (:mod:`.files.files`), annotation formats of other tools
(:mod:`.files.annotations`),
psan's tagged XML and the one CSV cell escaping."""

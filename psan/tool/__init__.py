"""psan.tool: the automatic part of psan, usable without the web application.

Recognition (tokens, sentences, named entities, patterns) produces a
:class:`~psan.tool.document.Document`; rules vote on spans; decisions and labels
turn a document into pseudonymized output.  Nothing here imports Flask,
Celery or psycopg2, so the library runs from the command line or inside any
other application.
"""

"""Database store layer of the annotation workflow.

Why a separate package: Celery tasks, CLI commands and views all save recognized documents,
load rules and re-annotate; these functions take an explicit psycopg2 connection and never
touch Flask request objects, so the same code runs inside a request or a worker transaction.
"""

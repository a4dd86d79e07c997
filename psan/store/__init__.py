"""Database store layer: all of psan's SQL, by domain.

Why a separate package: Celery tasks, CLI commands and views all save recognized documents,
load rules and re-annotate; these functions take an explicit psycopg2 connection and never
touch Flask request objects, so the same code runs inside a request or a worker transaction.

Subpackages, lowest first; each may import only the ones before it (and :mod:`psan.runtime`,
:mod:`psan.tool`), never Flask, :mod:`psan.celery` or the web layer (``tests/test_layering.py``):

* :mod:`psan.store.shared` – document statuses, planner statistics, clean names;
* :mod:`psan.store.admin` – accounts, projects, labels, rules, instance settings, the server;
* :mod:`psan.store.corpus` – documents, their text, pre-processing, the project model, re-annotation;
* :mod:`psan.store.annotation` – windows, decisions, suggestions, entities, locks, undo;
* :mod:`psan.store.review` – concordance, bulk decisions, double annotation, progress;
* :mod:`psan.store.publish` – regions, outputs, pseudonym key, QA, the release report, ZIPs.
"""

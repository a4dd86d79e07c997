"""Request infrastructure and helpers shared by the page blueprints.

* per request: access control (:mod:`~psan.web.access`), input guard, security headers, error pages,
  JSON provider, attachment headers, Flask extensions (the app factory, :func:`psan.create_app`, registers
  the blueprints);
* words for people: UI languages and the language switcher, codes (statuses, categories …) as words;
* shared by the admin and annotator pages: the project picker, id checks, charts, the CSV
  import/export, re-annotation after imports.

May import: :mod:`psan.identity`, :mod:`psan.celery`, :mod:`psan.store`, :mod:`psan.runtime`, :mod:`psan.tool`;
the page blueprints import it, never the other way round.
"""

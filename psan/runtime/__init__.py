"""Running psan anywhere: file locations, the layered configuration, the PostgreSQL connection pool
and statement execution, schema migrations, throw-away databases and Redis servers.

The lowest layer of the app: imports nothing of psan but :mod:`psan.runtime` itself.
"""

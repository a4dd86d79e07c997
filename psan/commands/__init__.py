"""Entry points that run psan: ``flask --app psan …`` commands (:mod:`psan.commands.cli`) and
``make run`` (:mod:`psan.commands.devstack`, with the pid file of :mod:`psan.commands.devstack_pids`).

May import everything below the app factory: identity, store, runtime.
"""

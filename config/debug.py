"""Development: template reload, verbose errors.  Never expose a debug instance to a network."""
DEBUG = True
TEMPLATES_AUTO_RELOAD = True

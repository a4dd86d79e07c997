"""Test runs: same as production except plain-HTTP cookies for the test client."""
TESTING = True
DEBUG = False
SESSION_COOKIE_SECURE = False
REMEMBER_COOKIE_SECURE = False

"""Production: secure cookies and HSTS (the app is served behind an HTTPS reverse proxy)."""
DEBUG = False
SESSION_COOKIE_SECURE = True
REMEMBER_COOKIE_SECURE = True
PREFERRED_URL_SCHEME = "https"
HSTS_SECONDS = 31536000
PROXY_FIX_X_FOR = 1

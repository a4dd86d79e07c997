"""Production: secure cookies and HSTS (the app is served behind an HTTPS reverse proxy)."""
DEBUG = False
SESSION_COOKIE_SECURE = True
REMEMBER_COOKIE_SECURE = True
PREFERRED_URL_SCHEME = "https"
HSTS_SECONDS = 31536000
# X-Forwarded-For is trusted only where a proxy is known to overwrite it (Docker Compose sets 1):
# trusting it without such a proxy lets every client pick its own address and dodge rate limits
PROXY_FIX_X_FOR = 0

"""Settings shared by every mode.  Each value can be overridden by instance/config.py or PSAN_<NAME>."""
import os

#: marker value; production refuses to start while the secret key still equals it
#: the type of each setting whose default does not say it (None); the others are read as their default's type
#: (psan.runtime.settings.parse_setting).  "?": may be empty (= unset).
SETTING_TYPES = {
    "SECRET_KEY": "str",  # nosec B105 - a type name, not a password
    "SMTP_PASSWORD": "str?",  # nosec B105 - a type name, not a password
    "DATABASE_URL": "str?", "REDIS_URL": "str?", "SMTP_HOST": "str?", "SMTP_USERNAME": "str?",
    "NAMETAG_MODELS_DIR": "str?", "QA_SAMPLE_SEED": "str?", "MODEL_THRESHOLD": "float?", "WTF_CSRF_TIME_LIMIT": "int?",
    "RATELIMIT_KEY_PREFIX": "str", "RATELIMIT_STORAGE_URI": "str?", "MAX_FORM_MEMORY_SIZE": "int?",
    "PREFERRED_URL_SCHEME": "str", "INSTANCE_PATH": "str",
    "OIDC_ISSUER": "str?", "OIDC_DISCOVERY_URL": "str?", "OIDC_CLIENT_ID": "str?",
    "OIDC_CLIENT_SECRET": "str?",  # nosec B105 - a type name, not a password
    "OIDC_BUTTON_LABEL": "str?", "OIDC_ROLE_CLAIM": "str?",
}
INSECURE_DEFAULT_SECRET_KEY = "psan-insecure-default-secret-key"  # noqa: S105 # nosec B105
SECRET_KEY = INSECURE_DEFAULT_SECRET_KEY

# --- services -----------------------------------------------------------------------------------
#: PostgreSQL URL (``postgresql://user:pass@host:5432/db``); required
DATABASE_URL = None
DB_POOL_MIN = 1
DB_POOL_MAX = 20
#: Redis URL used as Celery broker, result backend and rate-limit storage
REDIS_URL = None
CELERY_TASK_ALWAYS_EAGER = False
#: prefix of psan's own Redis keys (instances sharing one Redis database need distinct ones)
REDIS_KEY_PREFIX = "psan"
#: queue the web app sends tasks to and the worker consumes (separate instances sharing a Redis need distinct ones)
CELERY_QUEUE = "celery"
#: seconds after which a task of a worker that died is handed to another worker
CELERY_VISIBILITY_TIMEOUT = 3600
#: seconds to wait for Redis before a publish or the rate-limit store gives up (then: fallback / sweeper)
BROKER_CONNECT_TIMEOUT = 2
REDIS_SOCKET_TIMEOUT = 10
#: login limits fall back to this process's memory while Redis is down (logged once per outage)
RATELIMIT_IN_MEMORY_FALLBACK_ENABLED = True
RATELIMIT_STORAGE_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 2}

# --- background work (psan/celery/queue.py, psan/celery/sweeper.py) -----------------------------
#: pre-processing time limit: base + per million characters (soft: FAILED with a message); hard adds the grace
TASK_TIME_LIMIT_BASE_SECONDS = 120
TASK_TIME_LIMIT_SECONDS_PER_MCHAR = 240
TASK_TIME_LIMIT_GRACE_SECONDS = 60
#: most documents of one project queued or running at once; the rest wait (NEW) and the sweeper queues them
MAX_QUEUED_PER_PROJECT = 8
#: a running document refreshes its heartbeat this often; older than PROCESSING_STALE_SECONDS = abandoned
PROCESSING_HEARTBEAT_SECONDS = 20
PROCESSING_STALE_SECONDS = 120
#: after this many abandoned runs a document is FAILED (with Retry) instead of queued again
PROCESSING_MAX_ATTEMPTS = 3
#: how often each worker's sweeper runs (0 = never); NEW documents not queued for the grace period are queued
SWEEP_INTERVAL_SECONDS = 15
SWEEP_UNQUEUED_GRACE_SECONDS = 30
#: a queued document not started after this long lost its message and is queued again
QUEUED_STALE_SECONDS = 3600

# --- public address (used in links sent by e-mail and printed on first start) --------------------
SERVER_URL = "http://127.0.0.1:5000"

# --- e-mail -------------------------------------------------------------------------------------
SMTP_HOST = None  # e-mail is disabled while unset; reset links are then logged for the admin
SMTP_PORT = 25
SMTP_USERNAME = None
SMTP_PASSWORD = None
SMTP_STARTTLS = False
SMTP_SSL = False
SMTP_TIMEOUT = 10
MAIL_FROM = "psan@localhost"

# --- accounts -----------------------------------------------------------------------------------
PASSWORD_MIN_LENGTH = 10
PASSWORD_RESET_MAX_AGE = 3600  # seconds
REGISTRATION_MAX_AGE = 7 * 24 * 3600
DEFAULT_WINDOW_SIZE = 300  # tokens
LOGIN_RATE_LIMIT = "10 per minute; 50 per hour"
RESET_RATE_LIMIT = "5 per minute; 20 per hour"
# calls of the JSON API (/api/v1/) per token (per client address without one); a page user's pace, and more
API_RATE_LIMIT = "600 per minute; 20000 per hour"
RATELIMIT_ENABLED = True

# --- sign-in through the institution's identity provider (OpenID Connect; off while unset) ----------------
#: the provider's issuer URL (its discovery document is ISSUER/.well-known/openid-configuration), or the
#: discovery URL itself; with a client id both switch the "Sign in with your institution" button on
OIDC_ISSUER = None
OIDC_DISCOVERY_URL = None
#: the client registered at the provider; its redirect URI is SERVER_URL + /auth/oidc/callback
OIDC_CLIENT_ID = None
OIDC_CLIENT_SECRET = None
OIDC_SCOPE = "openid email profile"
#: the button's text (None: "Sign in with your institution", translated)
OIDC_BUTTON_LABEL = None
#: a claim of the ID token (e.g. "groups") and its values that make the person an admin; without them (or
#: without the value) a new person is an annotator without a project until an admin adds them to one
OIDC_ROLE_CLAIM = None
OIDC_ADMIN_VALUES = []
#: link a local account with the same e-mail at its first provider sign-in, if the provider says the e-mail
#: is verified (off: such a person is refused, since anyone may type any e-mail into some providers)
OIDC_LINK_VERIFIED_EMAIL = False
#: seconds to wait for the provider's discovery, token and key endpoints
OIDC_TIMEOUT = 10

# --- webhooks (psan.celery.webhooks; a project's URL and secret are on its settings page) ------------------
#: attempts of one event before it is given up (the delays double: BASE, 2 BASE, 4 BASE …, at most MAX)
WEBHOOK_MAX_ATTEMPTS = 6
WEBHOOK_RETRY_BASE_SECONDS = 30
WEBHOOK_RETRY_MAX_SECONDS = 3600
#: seconds to wait for the receiver's answer
WEBHOOK_TIMEOUT = 10
#: a signature's timestamp older than this is a replay for the receiver (documented for receivers; psan signs now)
WEBHOOK_TOLERANCE_SECONDS = 300
#: False refuses webhook URLs whose host is or resolves to a private, loopback or link-local address (SSRF:
#: the worker would otherwise POST into the internal network on an admin's word); True allows them
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False

# --- web ----------------------------------------------------------------------------------------
MAX_CONTENT_LENGTH = 64 * 1024 * 1024
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = False
REMEMBER_COOKIE_HTTPONLY = True
REMEMBER_COOKIE_SAMESITE = "Lax"
REMEMBER_COOKIE_SECURE = False
PERMANENT_SESSION_LIFETIME = 12 * 3600
#: seconds the "remember me" cookie keeps an account logged in (logout ends it earlier, server-side)
REMEMBER_COOKIE_DURATION = 14 * 24 * 3600
WTF_CSRF_TIME_LIMIT = None  # the token lives as long as the session; annotation sessions are long
BOOTSTRAP_SERVE_LOCAL = True  # never load Bootstrap from a CDN
#: number of reverse proxies in front of the app whose X-Forwarded-* headers are trusted
PROXY_FIX_X_FOR = 0
HSTS_SECONDS = 0
#: user-interface languages (catalogues in psan/translations); the first is the fallback
LANGUAGES = ["en", "cs"]

# --- NLP ----------------------------------------------------------------------------------------
#: folder with NameTag models (*.ner); see docs/admin.md, "NER models"
NAMETAG_MODELS_DIR = os.environ.get("PSAN_NAMETAG_MODELS")

# --- documents and annotation -------------------------------------------------------------------
#: longest accepted document (characters after decoding)
MAX_DOCUMENT_CHARS = 5_000_000
#: documents with more tokens are downloaded through a background job (psan.store.corpus.download_jobs), not in
#: the web request (uWSGI's harakiri ends requests after 120 s); project ZIPs offer both
LARGE_DOWNLOAD_TOKENS = 100_000
#: seconds a background download may take in the worker
DOWNLOAD_TIME_LIMIT = 3600
#: most files in one uploaded ZIP
MAX_ZIP_MEMBERS = 1000
#: most bytes all members of one ZIP may unpack to (zip-bomb guard)
MAX_ZIP_UNCOMPRESSED = 200 * 1024 * 1024
#: rule edits within this many seconds are applied to a project's documents in one background run
REANNOTATE_DEBOUNCE_SECONDS = 2
#: how long an annotation window stays leased to its annotator without any request (seconds)
WINDOW_LEASE_SECONDS = 900
#: retrain a project's model automatically after this many new decisions (0 = only by the admin's button)
MODEL_RETRAIN_AFTER_DECISIONS = 100
#: a project's first model is trained (in the background) after its first this many decisions (0: wait
#: for MODEL_RETRAIN_AFTER_DECISIONS); the previous model serves until a retrained one is stored
MODEL_FIRST_AFTER_DECISIONS = 20
#: entity types whose people's decisions are clear decide alone from then on
#: (psan.store.annotation.suggestions.learn_type_rules; False: only an explicit "by NE type" decision or an
#: admin sets a type's rule, as in the 2021 app)
LEARN_ENTITY_TYPES = True
#: evaluation runs only (ner_eval release): the QA samples' draws seeded with this text, so two runs of one
#: corpus and document order draw the same sentences; production refuses to start while it is set (a seeded sample
#: is predictable).  Unset: the operating system's randomness (psan.store.shared.sampling)
QA_SAMPLE_SEED = None
#: p(private) from which the project model suggests a span (None = the model's own, 0.5)
MODEL_THRESHOLD = None
#: True: a document longer than its pipeline's sections.min_chars (default 200,000 characters) is recognized
#: as a Celery chord of section tasks, so several worker processes share it (psan.celery.sections); while
#: its tasks wait in the queue the workers' sweepers keep its heartbeat fresh, and a chord whose workers
#: were killed is taken over after PROCESSING_STALE_SECONDS like any run.  False: one task per document
PREPROCESS_SECTIONS_IN_PARALLEL = True

"""Settings from environment variables (docs/contracts.md section 5).

Two modes, chosen by what is configured:

* embedded (nothing set): SQLite at ``var/db.sqlite3`` and scoring in one background
  thread of the web process, so ``bash scripts/start`` works on a bare machine;
* production: ``DATABASE_URL`` (PostgreSQL via psycopg 3) and ``CELERY_BROKER_URL`` or
  ``REDIS_URL`` (Redis): scoring runs on ``celery -A leaderboard worker`` processes.
"""

import os
from pathlib import Path
from typing import Any

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("GEC_VAR_DIR", BASE_DIR / "var"))
SHARED_DIR = Path(os.environ.get("GEC_SHARED_DIR", BASE_DIR.parent / "shared"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def embedded_secret_key() -> str:
    """The embedded mode's key: made once, kept (owner-only) beside its database."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        import secrets

        VAR_DIR.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


# Embedded (no DATABASE_URL) is what `scripts/start` runs: plain HTTP on a local port,
# a key of its own, and the site's own error pages (DEBUG off unless DEBUG=1 asks).
EMBEDDED = not os.environ.get("DATABASE_URL")
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    embedded_secret_key() if EMBEDDED else "insecure-development-key" if DEBUG else ""
)
if not SECRET_KEY:
    raise RuntimeError("set SECRET_KEY (or DEBUG=1 for a development run)")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "leaderboard.apps.LeaderboardConfig",
]

MIDDLEWARE = [
    "leaderboard.charsets.TextCharsetsOnly",  # a 415 for a compressing or non-text charset, before any decoding
    "django.middleware.security.SecurityMiddleware",
    "leaderboard.content_policy.ContentSecurityPolicy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "leaderboard.request_answers.RememberAnswers",  # access answers asked once per read request
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "leaderboard.urls"
WSGI_APPLICATION = "leaderboard.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", BASE_DIR / "leaderboard" / "campaigns" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# -- database -------------------------------------------------------------------------
SQLITE_PATH = VAR_DIR / "db.sqlite3"
DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{SQLITE_PATH}", conn_max_age=60)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # WAL lets pages read while the scoring thread writes; IMMEDIATE takes the write
    # lock at BEGIN, so two writers queue instead of failing on lock upgrade.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# The board's phase read and the pool's raw statements are prepared on the server
# (leaderboard/cursors.py); 0 behind a transaction-mode pooler such as PgBouncer, where a
# prepared statement does not follow the client to the next server (docs/deployment.md).
# Off also turns off Django's server-side cursors (``.iterator()``), which that mode breaks too.
GEC_PREPARED_STATEMENTS = env_bool("GEC_PREPARED_STATEMENTS", True)
if not GEC_PREPARED_STATEMENTS:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True

# -- scoring jobs -----------------------------------------------------------------------
# "celery": a broker is configured and workers score; "thread": one background thread of
# this process scores (embedded mode); "sync": scoring runs inside the request (tests).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL") or ""
GEC_TASK_MODE = os.environ.get("GEC_TASK_MODE") or ("celery" if CELERY_BROKER_URL else "thread")
GEC_SCORING_TIME_LIMIT = int(os.environ.get("GEC_SCORING_TIME_LIMIT", "900"))  # seconds per submission
GEC_STUCK_AFTER = int(
    os.environ.get("GEC_STUCK_AFTER", str(GEC_SCORING_TIME_LIMIT + 120))
)  # sweeper re-queues after this
GEC_SWEEP_EVERY = int(os.environ.get("GEC_SWEEP_EVERY", "60"))

CELERY_TASK_ACKS_LATE = True  # a message is acknowledged after scoring, so a killed worker's job is redelivered
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long jobs: do not hoard messages
CELERY_TASK_TIME_LIMIT = GEC_SCORING_TIME_LIMIT + 60
CELERY_TASK_SOFT_TIME_LIMIT = GEC_SCORING_TIME_LIMIT
# Bounded cost (docs/deployment.md): a job that took its worker down this many
# times fails as the file's fault; each worker process may hold this much private memory
# (0: no ceiling), and is replaced after a job once it holds three quarters of it.
GEC_MAX_WORKER_LOSSES = int(os.environ.get("GEC_MAX_WORKER_LOSSES", "2"))
# A worker stopped from outside (the host's OOM killer, a deploy) is no fault of the file:
# its job runs again, at most this many times, then fails as the platform's.
# A loss is the file's when the job's last heartbeat found it at this share of its
# memory ceiling or past its time budget (leaderboard/services/scoring_jobs/losses.py).
GEC_MAX_EXTERNAL_LOSSES = int(os.environ.get("GEC_MAX_EXTERNAL_LOSSES", "3"))
GEC_MEMORY_NEAR_CEILING = float(os.environ.get("GEC_MEMORY_NEAR_CEILING", "0.9"))
GEC_WORKER_MAX_MEMORY_MB = int(os.environ.get("GEC_WORKER_MAX_MEMORY_MB", "6144"))
CELERY_WORKER_MAX_MEMORY_PER_CHILD = GEC_WORKER_MAX_MEMORY_MB * 1024 * 3 // 4 or None  # KB
# Workers run below the web's CPU priority (nice value; 0 = as the web): on shared cores
# a request that waits behind a CPU-bound scoring job is what makes the board slow.
# 3: about half the web's weight (526 against 1024), so a storm of requests cannot starve
# scoring (docs/deployment.md, "A floor for scoring"; bench/crowd.py)
GEC_WORKER_NICE = int(os.environ.get("GEC_WORKER_NICE", "3"))
GEC_HEARTBEAT_EVERY = int(os.environ.get("GEC_HEARTBEAT_EVERY", "10"))  # a running job's sign of life
GEC_HEARTBEAT_GRACE = 3 * GEC_HEARTBEAT_EVERY  # older than this: its worker is gone
# Fair queues: a time budget of base + per 1,000 tokens of the file; files with more than
# GEC_LARGE_FILE_RATIO times the source's tokens go to GEC_LARGE_QUEUE ("" = no routing).
GEC_TIME_BUDGET_BASE = int(os.environ.get("GEC_TIME_BUDGET_BASE", "120"))
GEC_TIME_BUDGET_PER_1K_TOKENS = float(os.environ.get("GEC_TIME_BUDGET_PER_1K_TOKENS", "3"))
# With similarity-weighted CLEME2.0: seconds one forward pass of a 512-piece sentence may
# take (about 0.25 s on one core of the reference machine), times the most passes a
# changed line can need (services/scoring_jobs/cost.py).
GEC_TIME_BUDGET_SIM_PASS = float(os.environ.get("GEC_TIME_BUDGET_SIM_PASS", "0.5"))
GEC_LARGE_FILE_RATIO = float(os.environ.get("GEC_LARGE_FILE_RATIO", "2"))
GEC_LARGE_QUEUE = os.environ.get("GEC_LARGE_QUEUE", "scoring-large")
# A job whose estimated work (services/scoring_jobs/cost.py) passes this many seconds goes to the large queue too.
GEC_HEAVY_JOB_SECONDS = float(os.environ.get("GEC_HEAVY_JOB_SECONDS", "20"))
# The fair queue (services/scoring_jobs/dispatch.py): a team's uploads of a phase still waiting or scoring
# (beyond this: 429), and its jobs in the broker per queue at a time.
GEC_MAX_QUEUED_UPLOADS = int(os.environ.get("GEC_MAX_QUEUED_UPLOADS", "10"))
GEC_TEAM_JOBS_AT_ONCE = int(os.environ.get("GEC_TEAM_JOBS_AT_ONCE", "1"))
# A board's significance groups are computed by a worker (services/boards/ties.py), at most
# once per this many seconds a board while it keeps changing; on GEC_TIE_GROUPS_QUEUE when
# set (docker/compose.yaml: "boards", which the default worker takes from beside "celery",
# so the groups never wait behind a backlog of uploads), else on the default queue.
GEC_TIE_GROUPS_EVERY = float(os.environ.get("GEC_TIE_GROUPS_EVERY", "10"))
GEC_TIE_GROUPS_QUEUE = os.environ.get("GEC_TIE_GROUPS_QUEUE", "")
# The jobs of a task with a language-model metric (Scribendi, SOME, IMPARA: a metric with a
# lane) go to this queue, which a worker holding the model (a GPU's) takes; "" = the usual queue.
GEC_LM_QUEUE = os.environ.get("GEC_LM_QUEUE", "")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": GEC_STUCK_AFTER}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-submissions": {
        "task": "leaderboard.tasks.sweep_stuck_submissions",
        "schedule": float(GEC_SWEEP_EVERY),
    },
}

# -- the task defaults ------------------------------------------------------------------
# A human evaluation campaign is ranked again at most this often (seconds between the end
# of one ranking and the start of the next): with 10,000 judgments a ranking takes a worker
# 15-20 s, and judgments keep arriving (bench/campaign.py).
GEC_CAMPAIGN_RANK_EVERY = float(os.environ.get("GEC_CAMPAIGN_RANK_EVERY", "30"))
# A campaign enters the meta-evaluation (its NAME:EW and NAME:TS schemes) only with at
# least this many counted rankings: fewer say nothing about a metric's correlation.
GEC_CAMPAIGN_MIN_RANKINGS = int(os.environ.get("GEC_CAMPAIGN_MIN_RANKINGS", "100"))
GEC_MAX_UPLOAD_MB = float(os.environ.get("GEC_MAX_UPLOAD_MB", "10"))
GEC_MAX_GOLD_MB = float(os.environ.get("GEC_MAX_GOLD_MB", "100"))  # an organizer's gold files or zip, unpacked
# What one input file may hold (an output, a source, a reference, an M2 gold), counted as
# the library counts (scoring/limits.py): whitespace tokens and characters. A task's own
# per-line limit is its max_tokens; these bound a whole file, so a whole job. Raise them
# for tasks past ~10,000 sentences (docs/input-limits.md has the 20,000-sentence costs).
GEC_MAX_FILE_TOKENS = int(os.environ.get("GEC_MAX_FILE_TOKENS", "250000"))
GEC_MAX_FILE_CHARS = int(os.environ.get("GEC_MAX_FILE_CHARS", "2500000"))
# Who is in a phase's GoToScorer pool: "latest" = each team's latest scored submission
# plus baselines; "all" = every scored submission.
GEC_POOL = os.environ.get("GEC_POOL", "latest")
# GEC_SPACY_MODEL and GEC_BERTSCORE_MODEL are read by the scoring library itself, as are the
# language models' GEC_LM_MODEL, GEC_SOME_MODELS, GEC_IMPARA_MODELS, GEC_LM_DEVICE, GEC_LM_DTYPE
# and GEC_LM_BATCH_SIZE (scoring/lm/runtime.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(GEC_MAX_UPLOAD_MB * 1024 * 1024) + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}}}
# Rendered live fragments (views/fragment_cache.py), shared by every web process: Redis when there is
# one (GEC_FRAGMENT_CACHE_URL, by default the broker's), else this process's memory.
GEC_FRAGMENT_CACHE_URL = os.environ.get(
    "GEC_FRAGMENT_CACHE_URL", CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else ""
)
CACHES["fragments"] = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": GEC_FRAGMENT_CACHE_URL,
        "KEY_PREFIX": "gec-fragments",
    }
    if GEC_FRAGMENT_CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "OPTIONS": {"MAX_ENTRIES": 500},
    }
)

# -- web --------------------------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "leaderboard.api.auth.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "leaderboard.api.schema.ApiSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "GEC shared-task leaderboard",
    "DESCRIPTION": (
        "Upload system outputs, follow scoring, read leaderboards. The endpoints, their answers and migration notes: "
        "docs/contracts.md (section 3, REST API) in the repository; taking part with the API or gec-submit: "
        "docs/participant-guide.md."
    ),
    "VERSION": "1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,  # request bodies as sent: an upload's file is binary, not a URL
}

# -- HTTPS (``manage.py check --deploy`` is clean with DEBUG=0) ----------------------------
# Production serves HTTPS only: plain HTTP is redirected, cookies are secure-only, and
# browsers are told to remember that (HSTS, one day by default). Behind a proxy that
# ends TLS, set GEC_TRUST_X_FORWARDED_PROTO=1 so Django sees the request was HTTPS.
# The embedded mode and DEBUG=1 serve plain HTTP.
HTTPS_ONLY = not DEBUG and not EMBEDDED
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS_ONLY)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS_ONLY)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "86400" if HTTPS_ONLY else "0"))
# Subdomains and the browsers' preload list concern the whole domain, not this site:
# off unless the deployment turns them on, and their two --deploy warnings silenced.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]
if env_bool("GEC_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# -- email (sign-up, password reset, "your submission is scored") --------------------------
# Embedded mode prints mails on the console; set EMAIL_HOST (and EMAIL_PORT,
# EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS or EMAIL_USE_SSL) to send by SMTP.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if env_bool("EMAIL_USE_TLS", False) else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "GEC leaderboard <noreply@localhost>")
# Where links in emails point (mails sent by workers have no request to take it from).
GEC_SITE_URL = os.environ.get("GEC_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Django's four validators: not like the username or address, at least 8 characters, not
# among 20,000 common passwords, not all digits. They run in the sign-up, change and
# reset forms (and the admin), not in create_user(), so scripts and tests are not held to them.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise looks there first
# What a team's live pages poll (its own rows, a submission's status), written by web and
# workers on each change and served by the proxy without Django (services/boards): web,
# workers and proxy share it (docker/compose.yaml mounts one volume in all of them). Set
# it empty where they cannot share a directory: pages then ask Django for their own.
GEC_LIVE_DIR = os.environ.get("GEC_LIVE_DIR", str(VAR_DIR / "live"))
STATICFILES_DIRS = [BASE_DIR / "static", BASE_DIR / "leaderboard" / "campaigns" / "static"]
# whitenoise serves the static files from where they are (the finders) in every mode, so
# runserver, gunicorn and the tests need no ``collectstatic`` (docker runs it anyway:
# STATIC_ROOT's copies are served first).
WHITENOISE_USE_FINDERS = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"leaderboard": {"handlers": ["console"], "level": os.environ.get("GEC_LOG_LEVEL", "INFO")}},
}

# -- hardening: upload limits, bad parameters, throttles, error logs -------------
# Uploads are refused by Content-Length before the body is read, then streamed through a
# size-counting handler: this must run before the CSRF check, which reads the body.
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.csrf.CsrfViewMiddleware"), "leaderboard.uploads.UploadLimits")
MIDDLEWARE.append("leaderboard.errors.ClientErrors")  # a malformed query parameter is a 400
# Password guessing (login form and POST /api/auth/token/): (attempts, per seconds) per
# username and per client address; then 429 until the bucket refills.
GEC_LOGIN_LIMITS = {"username": (10, 900), "address": (50, 900)}
# Mail sent on request (sign-up, password reset): (mails, per seconds) per e-mail address
# and per client address; then 429.
GEC_MAIL_LIMITS = {"email": (3, 3600), "address": (20, 3600)}
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = ["leaderboard.throttling.AnonymousThrottle"]
# JSON and form bodies are read by DRF from the stream, past DATA_UPLOAD_MAX_MEMORY_SIZE: a
# body over this many bytes is a 413 before it is read whole (docs/security.md); uploads
# are multipart, bounded by GEC_MAX_UPLOAD_MB.
GEC_MAX_JSON_BODY_BYTES = int(os.environ.get("GEC_MAX_JSON_BODY_BYTES", "1048576"))
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = [
    "leaderboard.api.parsers.BoundedJSONParser",
    "leaderboard.api.parsers.BoundedFormParser",
    "leaderboard.api.parsers.BoundedMultiPartParser",  # an upload's view names MultiPartParser itself
]
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"anon": os.environ.get("GEC_ANON_API_RATE", "600/min")}
# Every API refusal is JSON: a 400 in the upload's shape, {"errors": [...]} (leaderboard/api/errors.py).
REST_FRAMEWORK["EXCEPTION_HANDLER"] = "leaderboard.api.errors.exception_handler"
# Trusted reverse proxies in front of the web processes (docs/security.md): 0 = the
# client talks to us directly and X-Forwarded-For is never read; N = every limit keyed
# on the client's address takes the address N hops from the right of that header.
GEC_NUM_PROXIES = int(os.environ.get("GEC_NUM_PROXIES") or "0")
REST_FRAMEWORK["NUM_PROXIES"] = GEC_NUM_PROXIES  # DRF's own throttles, should one be added
# API tokens expire this many days after they are issued (unset or 0: never); a password
# change or an explicit revoke ends them at once whatever this says (docs/security.md).
GEC_TOKEN_TTL_DAYS = float(os.environ.get("GEC_TOKEN_TTL_DAYS") or 0) or None
# Server errors are logged whatever DEBUG says (Django's own console handler is DEBUG-only).
LOGGING["loggers"]["django.request"] = {"handlers": ["console"], "level": "ERROR", "propagate": False}

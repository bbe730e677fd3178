"""Django settings for Shanghai Scorekeeper.

Every knob comes from the environment, with a safe default for a laptop: SQLite in ./data,
DEBUG only when asked. Production refuses to start on a missing or placeholder secret key.
"""

import os
from datetime import timedelta
from email.utils import formataddr, getaddresses
from ipaddress import ip_network
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from recognizer.limits import MAX_PIXELS as RECOGNIZER_MAX_PIXELS

BASE_DIR = Path(__file__).resolve().parent.parent

PLACEHOLDER_SECRET_KEY = "---"


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip()
# Django's own measure of a weak key (check --deploy): under 50 characters or 5 distinct ones.
WEAK_SECRET_KEY = len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5
if (
    WEAK_SECRET_KEY
    or SECRET_KEY == PLACEHOLDER_SECRET_KEY
    or SECRET_KEY.startswith("django-insecure")
):
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set DJANGO_SECRET_KEY to a long random value, at least 50 characters (for example "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`), or "
            "DJANGO_DEBUG=true on a laptop."
        )
    SECRET_KEY = "django-insecure-laptop-only-key-never-used-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "scorekeeper",
    # The admin asks staff for two-factor sign-in (scorekeeper/admin_site.py).
    "scorekeeper.apps.StaffAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_tasks_db",
    # Two-factor sign-in: an authenticator app (TOTP) and one-time recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
]

MIDDLEWARE = [
    "scorekeeper.logs.request_id",
    "scorekeeper.middleware.health_check",
    "scorekeeper.middleware.request_size_limit",
    "django.middleware.security.SecurityMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "scorekeeper.middleware.unchanged_polls",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The browser's language (Accept-Language), after the session and before CommonMiddleware.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "scorekeeper.middleware.tablet_sessions",
    # The language a signed-in member chose on the account page, over the browser's.
    "scorekeeper.middleware.member_language",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.middleware.page_headers",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "axes.middleware.AxesMiddleware",
    "scorekeeper.middleware.club_time_zone",
]
CSRF_FAILURE_VIEW = "scorekeeper.views.errors.csrf_failure"

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATA_DIR = Path(os.environ.get("DJANGO_DATA_DIR", BASE_DIR / "data"))
DATA_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'scorekeeper.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time: wait for the lock rather than fail, and take it at the start of a write.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Tests use a file too: an in-memory database shares one cache and fails concurrent writes
    # at once instead of waiting, which is not how the app runs.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test-scorekeeper.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SERIALIZATION_MODULES = {"json": "scorekeeper.serializers"}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
# The name an authenticator app shows beside the account's codes (two-factor sign-in). The
# admin lists members' devices (staff remove a lost phone's) but never shows their secrets.
OTP_TOTP_ISSUER = "Shanghai Scorekeeper"
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# Password guessers are slowed down: after DJANGO_LOGIN_ATTEMPTS failed logins for one account
# from one address, or DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS from one address, logins are refused
# there for DJANGO_LOGIN_LOCKOUT_MINUTES (django-axes, below). Sign-ups,
# password resets and invite codes are limited per address and per account (django-ratelimit),
# counted in the cache (below), which every worker and instance shares.
# The client's address is REMOTE_ADDR, unless DJANGO_TRUSTED_PROXIES says which proxies stand
# in front (a count, or their addresses or networks, outermost first): then it is the address
# the outermost trusted proxy received the request from, read from X-Forwarded-For.
TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES")
if len(TRUSTED_PROXIES) == 1 and TRUSTED_PROXIES[0].isdigit():
    TRUSTED_PROXY_COUNT, TRUSTED_PROXY_LIST = int(TRUSTED_PROXIES[0]), []
else:
    TRUSTED_PROXY_COUNT, TRUSTED_PROXY_LIST = len(TRUSTED_PROXIES), TRUSTED_PROXIES
    for proxy in TRUSTED_PROXY_LIST:
        try:
            ip_network(proxy, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                "DJANGO_TRUSTED_PROXIES must be a count (1) or addresses or networks "
                f"(10.0.0.1,10.1.0.0/16), not {proxy!r}"
            ) from None
AXES_CLIENT_IP_CALLABLE = "scorekeeper.proxies.client_address"
RATELIMIT_IP_META_KEY = "scorekeeper.proxies.client_address"
# An account is locked only at the address its wrong passwords came from, and a login wipes only
# its own account's failures there (scorekeeper/lockout.py adds the per-address limit).
AXES_HANDLER = "scorekeeper.lockout.LoginLockout"
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_ATTEMPTS", 5)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS", 20)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "429.html"
# Nor is an authenticator code, right or wrong, kept in the attempts log.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "code"]


def cache_settings(url: str) -> dict:
    """Where the cache lives: the database's cache table, or with DJANGO_CACHE_URL
    (redis://[:PASSWORD@]HOST:PORT/DB, rediss:// for TLS) a Redis server that every instance
    shares, through Django's own RedisCache. Either holds the throttle counters and the offline
    queue's tap ids; Redis also holds what the screens' polls of unchanged tables are answered
    from (scorekeeper/polling.py)."""
    if not url:
        return {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "scorekeeper_cache",
            # Django culls a third of the rows past 300 by default, throttle counters among
            # them: the counters, the invite guesses and the offline queue's tap ids of a busy
            # club night stay well under this, and expired rows are culled first.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss") or not parts.hostname:
        # Not said back: the address may hold Redis's password.
        raise ImproperlyConfigured(
            "DJANGO_CACHE_URL must be redis://HOST:PORT/DB (rediss:// with TLS, "
            "redis://:PASSWORD@HOST:PORT/DB with a password)"
        )
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        # An unreachable Redis answers within a second, not the worker's timeout.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


CACHE_URL = os.environ.get("DJANGO_CACHE_URL", "").strip()
CACHES = {"default": cache_settings(CACHE_URL)}
# With a shared Redis the polls of unchanged tables are answered from it, with no query; the
# database's cache table would cost the query it saves.
POLLS_FROM_CACHE = bool(CACHE_URL)
RATELIMIT_VIEW = "scorekeeper.views.errors.too_many_attempts"
# django-ratelimit prefers memcached or Redis; a database cache counts a few attempts too few
# when two arrive at once, which is fine for slowing down guessers, and needs no other server.
# (With DJANGO_CACHE_URL the counters are in Redis, and counted exactly.)
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# Heavy work (reading a photo, an import, a rebuild) is a task: queued in the database by the
# request, run by `manage.py task_workers` (the Procfile's worker: DJANGO_TASK_WORKERS processes,
# by default one a core but one, at least one: a core is left to the web workers). The workers run
# at the lower CPU priority DJANGO_TASK_NICENESS (0 to 19, as `nice` counts): photos being read
# take only what the taps leave (docs/scaling.md). A task still running after
# DJANGO_TASK_STALE_SECONDS lost its worker (killed, or its machine gone) and is queued again for
# another. An idle worker looks for tasks every fiftieth of a second; with DJANGO_CACHE_URL it
# sleeps instead until a queued task rings Redis, and looks by itself only every
# DJANGO_TASK_IDLE_SECONDS (docs/scaling.md).
# DJANGO_TASKS_BACKEND=immediate runs each task inside the request that queues it, as the app
# did before it had workers: for measuring what the workers save (make loadtest), not for a club.
TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
}
TASK_BACKEND = os.environ.get("DJANGO_TASKS_BACKEND", "database").strip()
if TASK_BACKEND not in TASK_BACKENDS:
    raise ImproperlyConfigured(
        f"DJANGO_TASKS_BACKEND must be database or immediate, not {TASK_BACKEND!r}"
    )
TASKS = {"default": {"BACKEND": TASK_BACKENDS[TASK_BACKEND]}}
TASK_WORKERS = env_int("DJANGO_TASK_WORKERS", max((os.process_cpu_count() or 1) - 1, 1))
TASK_STALE_SECONDS = env_int("DJANGO_TASK_STALE_SECONDS", 120)
TASK_IDLE_SECONDS = env_int("DJANGO_TASK_IDLE_SECONDS", 5)
if TASK_WORKERS < 1 or TASK_STALE_SECONDS < 1 or TASK_IDLE_SECONDS < 1:
    raise ImproperlyConfigured(
        "DJANGO_TASK_WORKERS, DJANGO_TASK_STALE_SECONDS and DJANGO_TASK_IDLE_SECONDS must be 1 "
        "or more"
    )
TASK_NICENESS = env_int("DJANGO_TASK_NICENESS", 10)
if not 0 <= TASK_NICENESS <= 19:
    raise ImproperlyConfigured(f"DJANGO_TASK_NICENESS must be from 0 to 19, not {TASK_NICENESS}")

# Password resets: printed on the console unless an SMTP server is named.
EMAIL_SMTP_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
MAILERS = {
    "default": (
        {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_SMTP_HOST,
                "port": env_int("DJANGO_EMAIL_PORT", 587),
                "username": os.environ.get("DJANGO_EMAIL_USER", ""),
                "password": os.environ.get("DJANGO_EMAIL_PASSWORD", ""),
                "use_tls": env_bool("DJANGO_EMAIL_TLS", True),
            },
        }
        if EMAIL_SMTP_HOST
        else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    )
}
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_EMAIL_FROM", "Shanghai Scorekeeper <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24 * 3

LANGUAGE_CODE = "en"
# Each language in its own words: a member picks theirs from this list (the account page).
LANGUAGES = [("en", "English"), ("es", "Español")]
# The catalogues, compiled (.mo) and committed: `python -m tools.catalogue --write` makes them.
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise's own list of types lacks the web app manifest's.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}


def photo_storage(url: str) -> dict:
    """Where photos are kept: on disk in MEDIA_ROOT, or with DJANGO_STORAGE_URL
    (s3://BUCKET[/PREFIX]?endpoint_url=...&region_name=...&addressing_style=path) in a private
    S3-compatible bucket, its credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."""
    if not url:
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    parts = urlsplit(url)
    if parts.scheme != "s3" or not parts.hostname:
        raise ImproperlyConfigured(f"DJANGO_STORAGE_URL must be s3://BUCKET..., not {url!r}")
    if parts.username or parts.password:
        raise ImproperlyConfigured(
            "DJANGO_STORAGE_URL must not hold credentials: set AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY"
        )
    query = dict(parse_qsl(parts.query))
    unknown = set(query) - {"endpoint_url", "region_name", "addressing_style"}
    if unknown:
        raise ImproperlyConfigured(f"DJANGO_STORAGE_URL: unknown option {sorted(unknown)[0]!r}")
    from botocore.config import Config

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": parts.hostname,
            "location": parts.path.strip("/"),
            **query,
            # Private: no ACL of its own (the bucket's, which must not be public) and never a
            # URL handed out; the app streams each photo to the club's members.
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": False,
            # An unreachable store answers within seconds, not the worker's timeout.
            "client_config": Config(
                connect_timeout=3, read_timeout=10, retries={"max_attempts": 2}
            ),
        },
    }


STORAGES = {
    "default": photo_storage(os.environ.get("DJANGO_STORAGE_URL", "").strip()),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Photos of cards: kept in MEDIA_ROOT or the bucket (served by the app to the club's members
# only, never as public files), refused beyond these sizes. A platform whose disk is thrown
# away on every deploy says DJANGO_EPHEMERAL_DISK=true, and `check --deploy` then refuses
# photos on disk.
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", BASE_DIR / "media"))
EPHEMERAL_DISK = env_bool("DJANGO_EPHEMERAL_DISK")
PHOTO_MAX_BYTES = env_int("DJANGO_PHOTO_MAX_MB", 20) * 1024 * 1024
# What one club may keep in photos, by count and by size; a photo beyond either is refused.
PHOTO_QUOTA_COUNT = env_int("DJANGO_PHOTO_QUOTA_COUNT", 500)
PHOTO_QUOTA_BYTES = env_int("DJANGO_PHOTO_QUOTA_MB", 200) * 1024 * 1024
if PHOTO_QUOTA_COUNT < 0 or PHOTO_QUOTA_BYTES < 0:
    raise ImproperlyConfigured(
        "DJANGO_PHOTO_QUOTA_COUNT and DJANGO_PHOTO_QUOTA_MB must be 0 (no photos) or more"
    )
PHOTO_MAX_PIXELS = env_int("DJANGO_PHOTO_MAX_MEGAPIXELS", 50) * 1_000_000
if not 0 < PHOTO_MAX_PIXELS <= RECOGNIZER_MAX_PIXELS:
    raise ImproperlyConfigured(
        "DJANGO_PHOTO_MAX_MEGAPIXELS must be from 1 to "
        f"{RECOGNIZER_MAX_PIXELS // 1_000_000}: the recognizer reads no larger photo."
    )

# The most players a club keeps (retired ones apart): every new-table page lists them all.
PLAYERS_PER_CLUB = env_int("DJANGO_PLAYERS_PER_CLUB", 500)

# The largest club export an upload may be: 100 tables make about 2 MB and take about 3 s to
# import, so 10 MB stays well inside the web worker's timeout (the command has no limit).
CLUB_IMPORT_MAX_BYTES = env_int("DJANGO_CLUB_IMPORT_MAX_MB", 10) * 1024 * 1024

# A request body larger than any upload the app takes (a photo or a club export, and a margin
# for the form around it) is refused from its Content-Length, before it is read or spooled.
REQUEST_MAX_BYTES = max(PHOTO_MAX_BYTES, CLUB_IMPORT_MAX_BYTES) + 1024 * 1024

# No inline scripts or styles anywhere: everything is served from our own static files.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:", "blob:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# Browser features the app may use: the camera for photos of cards and keeping the screen awake
# at the table, on its own pages only; nothing else.
PERMISSIONS_POLICY = {
    "camera": ["self"],
    "screen-wake-lock": ["self"],
    "fullscreen": ["self"],
    "geolocation": [],
    "microphone": [],
    "payment": [],
    "usb": [],
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# One line a record, with its request's id; errors (5xx) also e-mailed to DJANGO_ADMINS outside
# DEBUG, one for each kind of error every five minutes (scorekeeper/logs.py), and sent to Sentry
# when SENTRY_DSN names a project.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "scorekeeper.logs.RequestIdFilter"},
        "client_errors_in_one_line": {"()": "scorekeeper.logs.ClientErrorsInOneLine"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "error_mail_limit": {"()": "scorekeeper.logs.ErrorMailLimit"},
    },
    "formatters": {
        "line": {"format": "{levelname} [{request_id}] {name}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id", "client_errors_in_one_line"],
            "formatter": "line",
        },
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false", "error_mail_limit"],
            "class": "django.utils.log.AdminEmailHandler",
        },
    },
    # Django's own console handler printed its lines a second time beside the root's.
    # A request for a host not ours (DisallowedHost) is a scanner's, not a bug: a line, no mail.
    "loggers": {
        "django": {"handlers": ["mail_admins"], "level": "INFO", "propagate": True},
        "django.security.DisallowedHost": {"handlers": ["console"], "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}
ADMINS = [
    formataddr(address)
    for address in getaddresses([os.environ.get("DJANGO_ADMINS", "")])
    if address[1]
]
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Whom /.well-known/security.txt tells to report a security flaw to.
SECURITY_CONTACT = os.environ.get("DJANGO_SECURITY_CONTACT", "").strip() or (
    getaddresses(ADMINS)[0][1] if ADMINS else getaddresses([DEFAULT_FROM_EMAIL])[0][1]
)

SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    import sentry_sdk

    # No personal data: Sentry sees the error and the request's path, not who made it.
    sentry_sdk.init(dsn=SENTRY_DSN, send_default_pii=False, traces_sample_rate=0)

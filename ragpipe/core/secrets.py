"""Credentials in bot configs and in ragpipe's settings: where they may come from, where
they may not be written, and their redaction from everything stored, logged or printed.

- A bot's key comes from an environment variable the config names (``api_key_env``), and
  only from one meant for bots (prefix ``RAGPIPE_BOT_``): a config must not be able to
  send the judge's key, or any other secret of the process, to an endpoint of its choice.
- A config file must not hold a credential: a literal value in a header named like one
  (``Authorization``, ``X-Auth``, ``X-Api-Key``, ``Cookie`` …, see ``names_a_credential``)
  or shaped like one (``Bearer …``, a long run of letters and digits), URL user info, or
  a query parameter named like one (``?api_key=…``, ``api_token``, ``sig`` …) is refused
  with an error saying where the key goes instead: ``http.api_key_env``, or a header value
  ``${RAGPIPE_BOT_…}`` filled in from that variable when the request is sent (and redacted
  like the key). Refusing rather than redacting: a config file is copied, committed and
  shown around, and a key in it is leaked already.
- The same holds for the URLs ragpipe reads from its environment and keeps in its
  definitions, reports or errors (``environment_problems``): RAGPIPE_NEO4J_URI,
  RAGPIPE_LLM_BASE_URL, the storage, report and Dask URLs may not carry a credential
  (the Neo4j password and the judge's key have variables of their own).
  RAGPIPE_CACHE_URL may (libpq's form): it is read where it is used, never stored, and a
  command line that repeats it names the variable (``carries_credential``).
- Whatever a server sends back (an answer, a context, an error body) may quote the key,
  whole or in part (a body cut at 200 characters leaves a prefix). ``Redactor`` replaces
  every occurrence of a secret, its URL-encoded form, and any fragment of it of at least
  ``MIN_FRAGMENT`` characters, before the text is stored, cached, reported or logged.
- A key shorter than ``MIN_FRAGMENT`` cannot be redacted without mangling text: every
  occurrence of "x" in a reply is not the key ``x``. Such a key is refused where it is read,
  naming the variable (``short_key_problem``), and ``Redactor`` refuses it too.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, unquote, urlsplit

BOT_KEY_PREFIX = "RAGPIPE_BOT_"
MIN_FRAGMENT = 8  # a shorter run of a key's characters says nothing about the key
MASK = "***"

# Header and query parameter names that carry credentials in the wild: a name holding one
# of SECRET_WORDS anywhere (``apitoken``, ``x-amz-security-token``), one of SECRET_PARTS
# as a whole part (``X-Auth``, ``api_key``, ``sig``, but not ``keyword`` or ``author``), or
# ``code`` (OAuth's) whole.
SECRET_WORDS = ("token", "secret", "passw", "apikey", "signature", "credential", "cookie", "authorization", "jwt")
SECRET_PARTS = frozenset({"key", "auth", "sig", "pass", "pwd", "session", "sessionid", "bearer", "private"})
CREDENTIAL_SCHEME = re.compile(r"^\s*(bearer|basic|token|digest)\s+\S", re.IGNORECASE)
# A value shaped like a key whatever its header's name: one run of 20 or more key characters
# with letters and digits both (a UUID is refused too; it can be a key as well).
KEY_SHAPED = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9._~+/=:-]{20,}$")
ENV_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")  # ${RAGPIPE_BOT_…} in a header value

ADVICE = (f"put the key in an environment variable whose name starts with {BOT_KEY_PREFIX} and name it in "
          "http.api_key_env")


def short_key_problem(variable: str, key: str) -> str | None:
    """Why a key read from ``variable`` is too short to use, or None. The key itself is never
    part of the message."""
    if len(key) < MIN_FRAGMENT:
        return (f"{variable} holds a key of {len(key)} character(s): keys shorter than {MIN_FRAGMENT} cannot be "
                "redacted from what a server sends back without mangling its text; use the real key, or "
                f"leave {variable} unset for a server that needs none")
    return None


def key_variable_problem(name: str) -> str | None:
    """Why a bot config may not read this environment variable, or None."""
    if not name.startswith(BOT_KEY_PREFIX) or len(name) == len(BOT_KEY_PREFIX):
        return (f"a bot config may read only variables named {BOT_KEY_PREFIX}…, so that it cannot send another "
                f"secret of this process (such as the judge's key) to its endpoint; got {name!r}")
    return None


def names_a_credential(name: str) -> bool:
    """Whether a header or query parameter of this name carries a credential."""
    lowered = name.lower()
    return lowered == "code" or any(word in lowered for word in SECRET_WORDS) or \
        any(part in SECRET_PARTS for part in re.split(r"[^a-z0-9]+", lowered))


def header_problem(name: str, value: str) -> str | None:
    """Why a header with a literal value may not be in a config file, or None. The value
    itself is never part of the message. A value that only references variables (with
    text around them, ``Bearer ${RAGPIPE_BOT_KEY}``) is no literal."""
    literal = ENV_REFERENCE.sub("", value)
    if literal != value and not (CREDENTIAL_SCHEME.match(literal) or KEY_SHAPED.match(literal.strip())):
        return None
    if names_a_credential(name) or CREDENTIAL_SCHEME.match(value) or KEY_SHAPED.match(value.strip()):
        return (f"header {name!r} holds a literal credential: write its value as ${{{BOT_KEY_PREFIX}…}}, an "
                f"environment variable filled in when the request is sent, or {ADVICE} (with http.auth_header: "
                f"{name})")
    return None


def url_credential(url: str) -> str | None:
    """What credential a URL carries (user info, a query parameter named like a key), in
    words that quote none of it; None when it carries none."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.username is not None or parts.password is not None:
        return "user info (user:password@host)"
    named = sorted({name for name, _ in parse_qsl(parts.query, keep_blank_values=True) if names_a_credential(name)})
    return f"a credential in its query ({', '.join(f'{name}=…' for name in named)})" if named else None


def url_problem(url: str) -> str | None:
    """Why an endpoint URL may not be in a config file (it carries a credential), or None."""
    what = url_credential(url)
    if what is None:
        return None
    param = "" if what.startswith("user info") else \
        f", with http.api_key_param: {what.split('(')[1].split('=')[0]} to send it in the URL"
    return f"the URL carries {what}: {ADVICE}{param}"


# URLs ragpipe reads from its environment and keeps (in its definitions, in errors): where
# their credential goes instead.
CREDENTIAL_FREE_URLS = {
    "RAGPIPE_NEO4J_URI": "set RAGPIPE_NEO4J_USER and RAGPIPE_NEO4J_PASSWORD instead",
    "RAGPIPE_LLM_BASE_URL": "set RAGPIPE_LLM_API_KEY instead (and RAGPIPE_LLM_API_KEY_HEADER for another header)",
    "RAGPIPE_WAREHOUSE_URL": "give the store's credentials through its own variables (AWS_ACCESS_KEY_ID …)",
    "RAGPIPE_REPORTS_URL": "give the store's credentials through its own variables (AWS_ACCESS_KEY_ID …)",
    "RAGPIPE_REPORT_URL": "links to the reports are written into them; give the address alone instead",
    "RAGPIPE_DASK_SCHEDULER": "give the scheduler's address only (tls:// with Dask's own certificates)",
}


def environment_problems() -> list[str]:
    """Why the URLs in the environment may not be used as they are (see CREDENTIAL_FREE_URLS);
    the messages quote no value."""
    return [f"{variable} carries {what}, which ragpipe would store with its settings: {advice}"
            for variable, advice in CREDENTIAL_FREE_URLS.items()
            if (what := url_credential(os.environ.get(variable, "")))]


DSN_PASSWORD = re.compile(r"\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)  # libpq's key=value form
URL_PASSWORD = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/@:?#]*:([^/@?#]*)@")


def carries_credential(value: str) -> bool:
    """Whether a setting's value holds a credential ragpipe must not print: a URL with one,
    or a libpq connection string with a password."""
    return bool(DSN_PASSWORD.search(value)) or ("://" in value and url_credential(value) is not None)


def connection_secrets(value: str) -> list[str]:
    """The passwords a URL or libpq connection string holds, as written and decoded, found
    without parsing it whole (an error may be about a string that does not parse)."""
    found = [match.group(1) for pattern in (URL_PASSWORD, DSN_PASSWORD) for match in pattern.finditer(value)]
    return [form for secret in found if secret for form in {secret, unquote(secret.strip("'"))}]


def header_values(headers: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The headers with each ${VARIABLE} filled in from the environment, and the values
    filled in (secrets, to redact). ValueError naming the variable (never its value) for
    one that is unset, not meant for bots or too short to redact."""
    secrets: list[str] = []

    def fill(match: re.Match) -> str:
        variable = match.group(1)
        problem = key_variable_problem(variable)
        value = os.environ.get(variable, "")
        if problem is None and not value:
            problem = f"environment variable {variable} is not set"
        if problem is None:
            problem = short_key_problem(variable, value)
        if problem:
            raise ValueError(problem)
        secrets.append(value)
        return value

    return {name: ENV_REFERENCE.sub(fill, value) for name, value in headers.items()}, secrets


class RedactingFilter(logging.Filter):
    """Redacts the secrets from every record of the logger it is added to (uvicorn's access
    log writes the paths requested, which a client may have put a token in)."""

    def __init__(self, redact: "Redactor"):
        super().__init__()
        self.redact = redact

    def filter(self, record: logging.LogRecord) -> bool:
        # Each part on its own: formatters may read the arguments (uvicorn's access
        # formatter unpacks them), so their number and kinds stay.
        record.msg = self._clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(self._clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: self._clean(arg) for key, arg in record.args.items()}
        return True

    def _clean(self, value):
        if isinstance(value, (int, float)):
            return value
        text = str(value)
        redacted = self.redact(text)
        return value if redacted == text else redacted


class Redactor:
    """Replaces the given secrets in text (see the module docstring). Callable; a redactor
    of no secrets returns its text unchanged."""

    def __init__(self, secrets: Iterable[str]):
        secrets = [secret for secret in secrets if secret]
        if any(len(secret) < MIN_FRAGMENT for secret in secrets):
            raise ValueError(f"a secret shorter than {MIN_FRAGMENT} characters cannot be redacted without "
                             "mangling text (see short_key_problem)")
        forms = {form for secret in secrets for form in (secret, quote(secret, safe=""))}
        self._secrets = sorted(forms, key=len, reverse=True)
        grams = {s[i:i + MIN_FRAGMENT] for s in self._secrets for i in range(len(s) - MIN_FRAGMENT + 1)}
        self._grams = re.compile("|".join(re.escape(g) for g in sorted(grams))) if grams else None

    def __bool__(self) -> bool:
        return bool(self._secrets)

    def __call__(self, text: str) -> str:
        if not self._secrets or not text:
            return text
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        if self._grams is None:
            return text
        spans = [self._widest(text, hit.start(), hit.end()) for hit in self._grams.finditer(text)]
        for start, end in reversed(_merged(spans)):
            text = text[:start] + MASK + text[end:]
        return text

    def _widest(self, text: str, start: int, end: int) -> tuple[int, int]:
        """The longest run around text[start:end] that is a piece of one secret."""
        best = start, end
        gram = text[start:end]
        for secret in self._secrets:
            at = secret.find(gram)
            while at != -1:
                left, right = start, end
                while left > 0 and at - (start - left) > 0 and text[left - 1] == secret[at - (start - left) - 1]:
                    left -= 1
                while right < len(text) and at + (right - start) < len(secret) \
                        and text[right] == secret[at + (right - start)]:
                    right += 1
                if right - left > best[1] - best[0]:
                    best = left, right
                at = secret.find(gram, at + 1)
        return best


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = out[-1][0], max(out[-1][1], end)
        else:
            out.append((start, end))
    return out

"""Credentials in bot configs: where a config may take them from, where it may not write
them, and their redaction from everything stored or logged.

- A bot's key comes from an environment variable the config names (``api_key_env``), and
  only from one meant for bots (prefix ``RAGPIPE_BOT_``): a config must not be able to
  send the judge's key, or any other secret of the process, to an endpoint of its choice.
- A config file must not hold a credential: a literal value in an Authorization, key,
  token, secret, password or cookie header, URL user info with a password, or a query
  parameter named like a key (``?api_key=…``, ``token``, ``signature`` …) is refused with
  an error saying where the key goes instead. Refusing rather than redacting: a config
  file is copied, committed and shown around, and a key in it is leaked already.
- Whatever a server sends back (an answer, a context, an error body) may quote the key,
  whole or in part (a body cut at 200 characters leaves a prefix). ``Redactor`` replaces
  every occurrence of a secret, its URL-encoded form, and any fragment of it of at least
  ``MIN_FRAGMENT`` characters, before the text is stored, cached, reported or logged.
- A key shorter than ``MIN_FRAGMENT`` cannot be redacted without mangling text: every
  occurrence of "x" in a reply is not the key ``x``. Such a key is refused where it is read,
  naming the variable (``short_key_problem``), and ``Redactor`` refuses it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, urlsplit

BOT_KEY_PREFIX = "RAGPIPE_BOT_"
MIN_FRAGMENT = 8  # a shorter run of a key's characters says nothing about the key
MASK = "***"

# Lower-cased query parameter names that carry credentials in the wild.
SECRET_QUERY_KEYS = frozenset({"api_key", "apikey", "api-key", "key", "token", "access_token", "auth", "secret",
                               "client_secret", "password", "signature", "sig", "x-amz-signature", "code"})
SECRET_HEADER = re.compile(r"authorization|key|token|secret|password|cookie|signature", re.IGNORECASE)
CREDENTIAL_SCHEME = re.compile(r"^\s*(bearer|basic|token|digest)\s+\S", re.IGNORECASE)

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


def header_problem(name: str, value: str) -> str | None:
    """Why a header with a literal value may not be in a config file, or None. The value
    itself is never part of the message."""
    if SECRET_HEADER.search(name) or CREDENTIAL_SCHEME.match(value):
        return (f"header {name!r} holds a literal credential: {ADVICE} (with http.auth_header: {name} and "
                "http.auth_scheme: '' or Bearer)")
    return None


def url_problem(url: str) -> str | None:
    """Why an endpoint URL may not be in a config file (it carries a credential), or None."""
    parts = urlsplit(url)
    if parts.password is not None:
        return f"the URL carries a password (user:password@host): {ADVICE}"
    named = sorted({name for name, _ in parse_qsl(parts.query, keep_blank_values=True)
                    if name.lower() in SECRET_QUERY_KEYS})
    if named:
        return (f"the URL carries a credential in its query ({', '.join(named)}=…): {ADVICE}, "
                f"with http.api_key_param: {named[0]} to send it in the URL")
    return None


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

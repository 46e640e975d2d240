"""An evidence text as the sentences the verifier compares one by one: a JSON object
(structured evidence, as in RAGTruth's Yelp records) as readable lines, else its sentences."""

import json
import re

from ragpipe.core.text import split_sentences

CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")  # "OutdoorSeating": two words
_HOURS = re.compile(r"^(\d{1,2}):(\d{1,2})-(\d{1,2}):(\d{1,2})$")  # Yelp's "7:0-16:0"


def _flatten_json(text: str) -> list[str] | None:
    """Structured evidence (a JSON object) as readable lines: "hours Monday: 11:0-21:0"."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    lines: list[str] = []

    def walk(value, path):
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + [CAMEL.sub(" ", str(key)).replace("_", " ")])
        elif isinstance(value, list):
            for item in value:
                walk(item, path)
        elif isinstance(value, str) and len(value) > 80:
            lines.extend(split_sentences(value))
        elif value not in (None, ""):
            lines.append(f"{' '.join(path)}: {_readable(value)}")

    walk(data, [])
    return lines


def _clock(hour: str, minute: str) -> str:
    h = int(hour) % 24
    return f"{h % 12 or 12}{f':{int(minute):02d}' if int(minute) else ''} {'am' if h < 12 else 'pm'}"


def _readable(value) -> str:
    """A JSON value as an answer would word it: a false flag as "no" (so that "has outdoor
    seating" against "Outdoor Seating: no" is a negation mismatch, not support) and opening
    hours "7:0-16:0" with their 12-hour reading, in the words answers use ("7 am to 4 pm")."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    hours = _HOURS.match(value) if isinstance(value, str) else None
    if hours:
        a, b, c, d = hours.groups()
        return f"{int(a)}:{int(b):02d}-{int(c)}:{int(d):02d} ({_clock(a, b)} to {_clock(c, d)})"
    return str(value)


# A passive whose second clause leaves its verb out ("The Japanese course is taught by Ms Tanaka, and the Spanish
# course by Mr Ruiz."): two sentences, each with its verb, so that each agent is read against its own subject.
_GAPPED_PASSIVE = re.compile(r"^(?P<first>.*?\b(?P<verb>(?:is|are|was|were)\s+[a-z]+\s+by)\s+[A-Z][^,;]*?),?\s+and\s+"
                             r"(?P<subject>(?:(?:the|a|an|its|their|his|her|our|this|that|these|those|each|every)\s+|[A-Z])"
                             r"[^,;]{1,60}?)\s+by\s+(?P<agent>[A-Z][^,;]*?)(?P<end>[.!]?)\s*$")
_VERB_WORD = re.compile(r"\b(?:is|are|was|were|be|been|has|have|had|[a-z]+ed)\b")  # a subject with a verb is no gap


def _ungapped(sentence: str) -> list[str]:
    found = _GAPPED_PASSIVE.match(sentence)
    if not found or _VERB_WORD.search(found["subject"]):
        return [sentence]
    subject = found["subject"][0].upper() + found["subject"][1:]
    return [f"{found['first']}{found['end']}", f"{subject} {found['verb']} {found['agent']}{found['end']}"]


def evidence_sentences(text: str) -> list[str]:
    """An evidence text as the sentences that are compared one by one: a JSON object's
    readable lines, else its sentences (the whole text when it has none)."""
    lines = _flatten_json(text)
    parts = lines if lines is not None else [part for s in split_sentences(text) for part in _ungapped(s)]
    return parts or ([text] if text and text.strip() else [])

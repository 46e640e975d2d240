"""Clock times read as numbers: "4 pm" and "晚上十点" as the 24-hour hours a timetable writes (16, 22), and clock
times in words ("half past six", "九点三刻") as the forms those readers take."""
import re

# The readers of a time of day (here, and quantities.py's): "4 pm" / "10:30 p.m.", a Chinese part of the
# day ("晚上十点"), and ``clock_hour``, which reads either as the 24-hour hour. Before "am"/"pm" a dot parts the
# minutes as a colon does ("6.30am" is "6:30 a.m.", no 6.3 nor a "30am").
EN_CLOCK = r"(?P<eh>\d{1,2})(?:[:.](?P<em>\d{2}))?\s*(?P<half>[ap])\.?m\b\.?"
# A bare 早 / 晚 right before the hour is the short form ("早8点到晚6点"), not 最晚 ("at the latest").
DAY_PART = ("凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜间|午夜|半夜|深夜"
            r"|(?<![最较更太稍])[早晚](?=\s*(?:\d|[零一二两三四五六七八九十]))")
_LATE = ("下午", "傍晚", "晚上", "夜里", "夜间", "晚")
# The parts of the night whose 12点 is midnight ("营业到晚上12点"); 半夜3点 is 3 a.m., no late hour.
NIGHT = ("晚上", "夜里", "夜间", "晚", "午夜", "半夜", "深夜", "凌晨")
# Clock times in words, as the readers' forms: "half past six" / "a quarter to ten" are "6:30" / "9:45", "九点三刻"
# "9点45", "8 o'clock in the evening" "8 pm", and "12 noon" is noon (``spelled_clocks``).
_EN_HOURS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_EN_HOUR = rf"(?:\d{{1,2}}|{'|'.join(_EN_HOURS)})"
_PAST_TO = re.compile(rf"\b(?:(?P<half>half)|(?:a\s+)?quarter)\s+(?P<way>past|after|to)\s+(?P<hour>{_EN_HOUR})\b", re.I)
_DAY_PART_WORDS = re.compile(r"(?P<at>(?<![\d:])\d{1,2}(?::\d{2})?)\s*(?:o['’]clock\s*)?"
                             r"(?P<part>in the morning|in the afternoon|in the evening|at night)\b", re.I)
_NOON_HOUR = re.compile(r"\b12\s+(?=(?:noon|midnight)\b)", re.I)
_ZH_QUARTER = re.compile(r"(\d{1,2}|[零一二两三四五六七八九十]{1,3})点([一三])刻(?!钟)")  # 一刻钟 is a quarter hour


def _padded(form: str, written: str) -> str:
    """``form`` in the room ``written`` took, so that what follows keeps its place."""
    return form.ljust(len(written))


def _past_to(match: re.Match) -> str:
    written = match.group("hour").lower()
    hour = int(written) if written.isdigit() else _EN_HOURS.index(written) + 1
    minutes = 30 if match.group("half") else 15
    if match.group("way").lower() == "to":
        hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
    return _padded(f"{hour}:{minutes:02d}", match.group(0))


def _day_part_words(match: re.Match) -> str:
    hour = int(match.group("at").split(":")[0])
    part = match.group("part").lower()
    late = part in ("in the afternoon", "in the evening") or part == "at night" and 6 <= hour < 12
    return _padded(f"{match.group('at')} {'pm' if late else 'am'}", match.group(0))


def _zh_hour_number(written: str) -> int | None:
    """An hour as a clock writes it in digits or Chinese numerals ("9", "九", "十二", "两"); None for no hour ("三三")."""
    written = written.replace("两", "二")
    tens, ten, ones = written.partition("十")
    try:
        return int(written) if written.isdigit() else (
            (_ZH_DIGITS.index(tens) if tens else 1) * 10 + (_ZH_DIGITS.index(ones) if ones else 0) if ten
            else _ZH_DIGITS.index(written))
    except ValueError:
        return None


def _zh_quarter(match: re.Match) -> str:
    hour = _zh_hour_number(match.group(1))
    if hour is None:
        return match.group(0)
    return _padded(f"{hour}点{15 if match.group(2) == '一' else 45}", match.group(0))


def spelled_clocks(text: str) -> str:
    """The text with its clock times in words written as the readers' forms, each in the room its words took
    (positions read on the result are the text's): "at half past six" → "at 6:30        "."""
    return spelled_clock_rooms(text)[0]


def spelled_clock_rooms(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``spelled_clocks`` and the room of each time it rewrote: a reader that gives a time's place gives all of it."""
    rooms: list[tuple[int, int]] = []

    def kept(rewrite):
        def sub(match: re.Match) -> str:
            rooms.append(match.span())
            return rewrite(match)
        return sub
    for pattern, rewrite in ((_PAST_TO, _past_to), (_DAY_PART_WORDS, _day_part_words),
                             (_NOON_HOUR, lambda m: " " * len(m.group(0))), (_ZH_QUARTER, _zh_quarter)):
        text = pattern.sub(kept(rewrite), text)
    return text, rooms


# A clock time "4 pm" / "10:30 p.m." read as the 24-hour time a timetable writes ("16", "22:30").
EN_CLOCK_TIME = re.compile(rf"\b{EN_CLOCK}", re.I)
# A time on the hour is its hour: "22:00" states what "10 pm" (22) does, not a second number 0.
_ON_THE_HOUR = re.compile(r"(?<!\d)(?<!\d:)(\d{1,2}):00(?![\d:])")  # "时间：9:00" too, not "12:30:00"
# A Chinese clock hour after a part of the day reads as its 24-hour value, as a timetable writes it:
# "晚上十点" is 22 ("22:00"), "下午3点半" 15. Without a part of the day the hour is left as written.
_ZH_CLOCK = re.compile(rf"({DAY_PART})([^\d零一二两三四五六七八九十，。；、,.;]{{0,3}})"
                       r"(\d{1,2}|[零一二两三四五六七八九十]{1,3})(?=\s*[点:：])")  # "晚上开到9点" too
# The second end of a range after a part of the day shares it: "晚上7点到9点" is 19 to 21.
ZH_RANGE_GAP = r"\s*(?:\d{1,2}|[零一二两三四五六七八九十]{1,3})点(?:半|\d{1,2}分?)?\s*(?:到|至|-|—|~|～)\s*"
_ZH_CLOCK_RANGE = re.compile(rf"({DAY_PART})({ZH_RANGE_GAP})(\d{{1,2}}|[零一二两三四五六七八九十]{{1,3}})(?=\s*[点:：])")
_ZH_DIGITS = "零一二三四五六七八九"


def clock_hour(hour: int, part: str | None = None, half: str | None = None) -> int:
    """The 24-hour hour of a clock hour read with its "am"/"pm" (``half``: "a" or "p") or its Chinese part
    of the day: "10 pm" and "晚上十点" are 22, "中午1点" 13; with neither, the hour as written."""
    if half:
        return hour % 12 + (12 if half.lower() == "p" else 0)
    late = part in _LATE or part == "中午" and hour < 3
    return hour % 12 + 12 if late and hour <= 12 else hour


def _24_hour(match: re.Match) -> str:
    hour, minute = clock_hour(int(match.group("eh")), half=match.group("half")), match.group("em")
    return f"{hour}:{minute}" if minute and int(minute) else str(hour)


def _zh_hour(match: re.Match) -> str:
    part, between, hour = match.group(1), match.group(2), _zh_hour_number(match.group(3))
    return match.group(0) if hour is None else f"{part}{between}{clock_hour(hour, part)}"


def hours_as_numbers(text: str) -> str:
    """``text`` (normalized) with each clock time written as its 24-hour reading: "10:30 p.m." "22:30", "晚上7点到9点"
    "晚上19点到21点", "22:00" "22"."""
    text = EN_CLOCK_TIME.sub(_24_hour, spelled_clocks(text))
    return _ON_THE_HOUR.sub(r"\1", _ZH_CLOCK.sub(_zh_hour, _ZH_CLOCK_RANGE.sub(_zh_hour, text)))

"""The units a quantity is written in, zh and en: each spelling's dimension and its factor to the
dimension's base unit (quantities.py reads the numbers before them)."""

from __future__ import annotations

# dimension, factor to its base unit, spellings (latin ones end at a word boundary). Months and
# years are one dimension, days and hours another: "two years" is 24 months, not 730 days.
_UNITS = [
    ("length", 1000, ["km", "公里", "千米", "kilometres?", "kilometers?"]),
    ("length", 1, ["m", "米", "metres?", "meters?"]),
    ("length", 0.01, ["cm", "厘米", "centimetres?", "centimeters?"]),
    ("length", 0.001, ["mm", "毫米", "millimetres?", "millimeters?"]),
    ("length", 1609.344, ["miles?", "英里"]),
    # Imperial units beside the metric ones: "6 lb" is not "6 kg", "12 miles" not "12 km".
    ("length", 0.9144, ["yards?", "yds?"]),
    ("length", 0.3048, ["feet", "foot", "ft", "英尺"]),
    ("length", 0.0254, ["inch(?:es)?", "英寸"]),
    ("mass", 1e6, ["吨", "tonnes?", "metric tons?"]),
    ("mass", 1000, ["kg", "公斤", "千克", "kilograms?", "kilos?"]),
    ("mass", 500, ["斤"]),
    ("mass", 453.59237, ["lbs?", "pounds?", "磅"]),
    ("mass", 28.349523125, ["oz", "ounces?", "盎司"]),
    ("mass", 1, ["g", "克", "grams?"]),
    ("mass", 0.001, ["mg", "毫克", "milligrams?"]),
    ("power", 1000, ["kW", "千瓦", "kilowatts?"]),
    ("power", 1, ["W", "瓦特", "瓦", "watts?"]),
    ("temperature", 1, ["°C", "℃", "摄氏度", "degrees? Celsius", "degrees? C"]),
    # Fahrenheit counts from 32 °F = 0 °C (quantities.py shifts it): 200 °F is 93.3 °C, not 200 °C.
    ("temperature", 5 / 9, ["°F", "℉", "华氏度", "degrees? Fahrenheit", "degrees? F"]),
    ("volume", 1000, ["立方米", "cubic met(?:re|er)s?", "m³"]),
    ("volume", 3.785411784, ["gallons?", "加仑"]),
    ("volume", 1, ["L", "升", "lit(?:re|er)s?"]),
    ("volume", 0.001, ["ml", "mL", "毫升", "millilit(?:re|er)s?"]),
    ("time", 1209600, ["fortnights?"]),
    ("time", 604800, ["周", "星期", "weeks?"]),
    ("time", 86400, ["天", "日", "days?"]),
    ("time", 3600, ["小时", "钟头", "hours?", "hrs?", "h"]),
    ("time", 60, ["分钟", "minutes?", "mins?"]),
    ("time", 1, ["秒钟?", "seconds?", "secs?"]),
    ("time", 0.001, ["毫秒", "ms", "milliseconds?"]),
    # A working day is a day of its own kind: "3个工作日" is no "3天" (a weekend may fall between), but a
    # hedged count of days says it ("大约三天" / "3个工作日", quantities.same).
    ("workday", 86400, ["个?工作日", "working days?", "business days?", "workdays?"]),
    ("calendar", 12, ["年", "years?"]),
    ("calendar", 1, ["个月", "月龄", "months?"]),  # a bare 月 after a number is a month of the year ("5月")
]
# A month is 28 to 31 days: a calendar amount and a time amount are one quantity where the days
# fall in that band ("一个月" / "30天", "一年" / "365天"), and a calendar amount is written in days
# at 30 a month where the evidence counts only days or weeks ("一个月" against "两周" conflicts).
MONTH_DAYS = (28, 31)
DAY = 86400
SPELLINGS = sorted(((s, dim, factor) for dim, factor, spellings in _UNITS for s in spellings),
                    key=lambda item: len(item[0]), reverse=True)
UNIT = "|".join(rf"{s}(?![A-Za-z])" if s[0].isascii() else s for s, _, _ in SPELLINGS)

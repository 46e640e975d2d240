import math

from ragpipe.core.evidence.calibration import HALLUCINATED_FROM, hallucinated
from ragpipe.core.evidence.support import declines
from ragpipe.core.metrics.base import STATEMENT_JUDGE, Metric, MetricResult, Toolkit, supported_share
from ragpipe.core.schemas import EvalCase

DECLINES = "the answer declines to answer"


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if declines(kit.statements(case.answer)):
        return MetricResult.unmeasured(DECLINES, refusal=True)
    result = supported_share(kit, case.answer, case.retrieved_contexts,
                             "the answer makes no statement the contexts can check (bare reply or empty)", case.question)
    if kit.mode == "offline" and not math.isnan(result.value):
        # The flag reads the same probabilities as the value: some statement is more likely
        # than not unsupported (the details show which).
        support = [v["score"] for v in result.details["statements"]]
        result.details.update(expected_unsupported=round(float(sum(1 - p for p in support)), 4),
                              hallucinated=hallucinated(support))
    return result


METRIC = Metric(
    name="faithfulness",
    definition=("Expected share of the answer's atomic statements that the retrieved contexts support: the mean "
                "of each statement's calibrated support probability (lexical, numeric, name, negation and "
                "embedding evidence, weighed by the offline verifier; a quantity the contexts state in another unit or "
                "form is read as they write it (\"两周\" / \"14天\", \"65瓦\" / \"65W\", \"约8849米\" / \"8848.86米\", "
                "\"about 300\" / \"298\", \"一半\" / \"50%\", \"大约三天\" / \"3个工作日\", \"每天两场\" / "
                "\"每天上午和下午各一场\"), and a Chinese word the contexts lack as the word of theirs that shares a rarely used "
                "character with it (\"缴纳\" / \"缴费\", \"连续使用\" / \"续航\"; not across a negator or two opposed "
                "characters: \"免费\" / \"费用\", \"上午\" / \"下午\"), a one-character verb as their two-character verb "
                "that holds it (\"带\" / \"携带\", \"取\" / \"可取\"), and a measure word or particle they lack (\"这座\", "
                "\"着\"; not a unit after a number: \"3天\"), or a word the segmenter guessed whose pieces they hold, is no word "
                "they must hold; "
                "a number the contexts lack (digits, or a number "
                "word that counts a unit: \"eight hours\"; not the difference of two values "
                "the contexts state: \"比B型重0.3公斤\" against 2.1 and 1.8 kg) makes it 0, a "
                "plain contradiction such as another name, number, rank (\"third largest\" / \"second largest\") or "
                "date where the context has one (a date the "
                "contexts state nowhere, against the date of the sentence on the same subject or of the same start or "
                "deadline however worded: \"The deadline is 15 May\" / \"must be submitted by 2025-03-15\"; the same day so "
                "worded is support), a flipped "
                "negation, a thing said to be included that the context charges for apart (\"门票包含语音导览\" / "
                "\"语音导览需另外租用\", \"Breakfast is included\" / \"charged separately\"), a permission (or \"no effect\") where the context forbids or a duty where it exempts, "
                "however worded (\"可以\" / \"严禁\", \"may\" / \"must not\", \"must\" / \"optional\"; a group let "
                "use what the context forbids it: \"Children under 12 can take it\" / \"Do not give this medicine to "
                "children under 12\"; a thing brought from outside: \"bring clay from elsewhere\" / \"outside clay is "
                "not allowed\", \"自己带啤酒\" / \"禁止自带酒水\"; alone where it requires company: \"without an adult\" / "
                "\"must be accompanied by an adult\"; minors and \"under 18\", 未成年人 and \"未满18周岁\" are one group), "
                "an act called free that the context charges for under the same condition (\"不收任何费用\" / "
                "\"…24小时内取消的，需支付100元违约金\"), a value the context gives another group of people (\"Seniors get 20% off\" / "
                "\"Students get 20% off…\", \"Women … after 12 weeks\" / \"Men must wait at least 12 weeks\"), a floor "
                "stated as a ceiling (not a ceiling on those a rule turns away: \"未满18岁的人不能跳伞\" / \"须年满18周岁\", "
                "\"Nobody younger than 18 can\" / \"must be 18 or older\" say one thing), no bound where the context sets one (\"unlimited\" / \"at most\", \"无限次\" / "
                "\"最多\"), a claim of all where the context limits it to a part or names exceptions (\"All "
                "employees…\" / \"Only full-time employees…\", \"所有\" / \"只有\", \"部分\", \"除…外\"; or names a kind of "
                "the whole before its noun: \"所有会员\" / \"年卡会员\", \"Every member\" / \"Gold members\"; a limit the question "
                "already carries is none), a start or end at the other end of the context's range or at neither (\"closes at "
                "10 a.m.\" / \"open from 10 a.m. to 5 p.m.\"; \"closes at 5 p.m.\" is its end, no open/close "
                "antonym), swapped roles (also around a converse verb: \"borrowed from\" / \"lent to\", \"向…借\" / "
                "\"借给\") or a comparison stated the other way round (\"shorter than\" / "
                "\"longer than\" between the same two; \"B is longer than A\" says what \"A is shorter than B\" "
                "says), or one the two values the contexts state of its sides contradict (\"built before\" against "
                "two years; a difference it states that the two values do not make: \"0.5 kg heavier\" against 2.1 "
                "and 1.8 kg) caps it at 0.3, and so does an invented "
                "statement (not one whose comparison the two values bear out: \"a lower price\"): two or more words beyond the question's and the names the contexts also name, none "
                "of them in the contexts, or, in a clause added to another (\"，并赠送一本教材\", \"and includes a free textbook\"), "
                "half of them or more, or a short claim whose predicate the contexts never state (\"It is free.\", "
                "\"门票免费。\") or that offers a thing they never name (\"First class includes free meals.\", "
                "\"车上提供免费无线网络。\"; where the question asks what is offered or had, one such thing alone: \"It also comes "
                "with a tripod.\", \"小区设有游泳池。\"; one they never name where they say what is included: \"A GPS is "
                "included for free.\"; the second of two things a verb of including takes, alone: \"includes entry "
                "and a free audio guide\"; a bare thing answering a what-question, one word as much as two: \"A packed lunch.\", "
                "\"防晒霜。\"), or that gives a benefit to a group of people they never name (\"A "
                "second bag is free for students.\", \"学生可享五折优惠。\"), or that, in reply to a yes/no question, "
                "names again the asked thing they never name while its other words are theirs (\"Does it cause "
                "headaches?\" - \"Yes, headaches are a common side effect.\"), or that follows a yes with three or more "
                "words they never name beside at most one they do (\"Yes, every mover passes a criminal background check "
                "before joining the crew.\" beside \"our crews…\"), and no number or date they state). A lead-in that only names a source "
                "(\"根据宣传册，\", \"According to the brochure, \") is no claim. Offline, the answer is flagged as "
                "hallucinated "
                "(details.hallucinated) when the expected number of its unsupported statements, the sum of "
                f"1 - p (details.expected_unsupported), is at least {HALLUCINATED_FROM}: more likely than not some "
                "statement is unsupported. One rule for every language, fixed a priori; the value and the flag "
                "read the same probabilities. LLM mode: the share of statements the judge finds supported. "
                "Refusal sentences (\"the documents do not say…\", "
                "\"资料中没有相关信息\") assert nothing and are not checked; an answer that only declines is NaN "
                "with the reason \"the answer declines to answer\" and is never flagged (whether declining was "
                "right is answer_correctness's call)."),
    reads=("answer", "retrieved_contexts"),
    higher_is_better=True,
    nan_when=("no answer, no retrieved contexts, the bot failed, the answer declines to answer (a refusal), or it "
              "makes no statement the contexts can check (only a bare reply such as \"Yes.\")"),
    compute=compute,
    judge=STATEMENT_JUDGE,
)

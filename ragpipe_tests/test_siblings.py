from ragpipe.core.evidence.contradiction import contradicted
from ragpipe.core.evidence.siblings import sibling_swap
from ragpipe.core.text import split_sentences

PITCHES = "Standard pitches are grass sites without power. Premium pitches have a 16-amp electric hook-up and a private water tap."
LENSES = "本店单光镜片现场加工，当天可取；渐进多焦点镜片需送工厂定制，7至10个工作日取件。"
HEARING_AIDS = "耳内式助听器需根据耳道定制外壳，取模后两周交付；耳背式可当天配戴。"


def test_what_the_evidence_says_of_a_sibling_thing_said_of_the_statements_own():
    # Round nineteen (i60b-clauses): the sibling's clause shares most words, and nothing read the modifiers apart.
    found = sibling_swap("Standard pitches come with an electric hook-up", split_sentences(PITCHES))
    assert found and found[0] == "subject" and found[2] == "Standard pitches are grass sites without power."
    assert sibling_swap("The standard plan includes phone support", split_sentences(
        "The premium plan includes phone support and a dedicated manager; the standard plan offers email support only."))
    assert sibling_swap("Behind-the-ear models need a custom shell", split_sentences(
        "In-the-ear models need a custom shell made from an ear impression; behind-the-ear models can be fitted the same day."))
    assert sibling_swap("渐进多焦点镜片当天可取", split_sentences(LENSES))
    # A Chinese modifier of kind may stand for its thing alone ("耳背式可当天配戴").
    assert sibling_swap("耳背式助听器需要定制外壳", split_sentences(HEARING_AIDS))


def test_a_sibling_swap_is_read_as_a_contradiction():
    assert contradicted("Standard pitches come with an electric hook-up.", "Do standard pitches have power?",
                        split_sentences(PITCHES))
    assert contradicted("挂式空调清洗需要两人上门操作。", "挂式空调清洗怎么安排？", split_sentences(
        "挂式空调清洗每台80元，约40分钟，一人上门；柜式空调清洗每台120元，需两人上门操作。"))


def test_what_the_evidence_says_of_the_statements_own_thing_is_no_swap():
    assert sibling_swap("Premium pitches have an electric hook-up", split_sentences(PITCHES)) is None
    assert sibling_swap("耳内式助听器需要定制外壳", split_sentences(HEARING_AIDS)) is None
    assert sibling_swap("单光镜片当天可取", split_sentences(LENSES)) is None
    # Said of its own thing in one clause, though another clause about it says something else.
    assert sibling_swap("The Essential plan's annual limit is $5000", split_sentences(
        "The Essential plan has an annual limit of $5000; the Premier plan has no annual limit. "
        "Pawsure's Essential plan costs $24 a month for dogs.")) is None
    # Said of both things alike.
    assert sibling_swap("Standard pitches have a water tap", split_sentences(
        "Premium pitches have a private water tap; standard pitches have a shared one too.")) is None
    # A statement that names the sibling too speaks of both.
    assert sibling_swap("Linksys routers use 192.168.1.1, D-Link", split_sentences(
        "Linksys routers, for example, use 192.168.1.1 for their internal IP address. "
        "D-Link and Netgear routers typically use 192.168.0.1.")) is None
    # Its own thing's value in the sibling's wording: the numbers decide whose clause it speaks of.
    framing = split_sentences("Standard framing takes 10 working days. Express framing, ready in 3 working days, costs an extra 25%.")
    assert sibling_swap("Standard framing is ready in 10 working days", framing) is None
    assert sibling_swap("Standard framing is ready in 3 working days", framing)
    assert sibling_swap("Regular delivery arrives within 5 business days", split_sentences(
        "Regular delivery takes 5 business days. Priority delivery, arriving within 2 business days, costs $9 more.")) is None

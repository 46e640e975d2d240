"""word_senses: English words that share a frequent sense are read as one another; other words are not."""

import pytest

from ragpipe.core.synonyms import as_evidence_words
from ragpipe.core.text import content_tokens
from ragpipe.core.word_senses import same_sense


def held(text):
    return set(content_tokens(text))


@pytest.mark.parametrize("word, evidence", [("starts", "Classes begin on Monday."), ("kids", "Children under 12 pay half."),
                                            ("supplied", "All tools are provided."), ("assisted", "Staff help new members."),
                                            ("big", "The room is large."), ("purchased", "Tickets are bought online.")])
def test_a_word_sharing_a_frequent_sense_is_read_as_the_evidences(word, evidence):
    assert same_sense(content_tokens(word)[0], held(evidence))


@pytest.mark.parametrize("word, evidence", [("sunday", "Classes meet on Saturday."), ("march", "Fees are due in April."),
                                            ("closed", "The pool is open."), ("adults", "Children ride free."),
                                            ("sell", "You can buy tickets."), ("get", "Classes begin at nine."),
                                            ("five", "It lasts three days."), ("borrow", "The club lends masks."), ("dog", "The trail is steep."),
                                            ("account", "A short history of the town.")])
def test_names_values_antonyms_and_rare_senses_are_no_synonyms(word, evidence):
    assert same_sense(content_tokens(word)[0], held(evidence)) is None


def test_the_statement_reads_the_evidences_word_where_it_lacks_its_own():
    evidence = held("Classes begin on 2 September and all tools are provided.")
    assert as_evidence_words(content_tokens("The course starts in September; tools are supplied."), evidence, []) == \
        ("course", "begin", "september", "tool", "provid")


def test_a_compound_is_not_read_as_its_head():
    assert same_sense("workshop", held("Books can be left at the reuse shop.")) is None

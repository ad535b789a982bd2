"""Properties of the SIGHAN scorer on any two segmentations of the same text,
and of its line-alignment check on texts that differ."""
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from spacy_cws.scoring.line_alignment import LineMismatchError
from spacy_cws.scoring.sighan import score_lines

from .strategies import HAN, SENTENCE


@st.composite
def resegmented(draw):
    """(gold lines, system lines): random gold sentences and, for each, the
    same characters cut into words at random places."""
    gold, system = [], []
    for words in draw(st.lists(SENTENCE, min_size=1, max_size=6)):
        text = "".join(words)
        cuts = sorted(draw(st.sets(st.integers(1, len(text) - 1), max_size=len(text) - 1)) if len(text) > 1 else [])
        bounds = [0, *cuts, len(text)]
        gold.append(words)
        system.append([text[start:end] for start, end in zip(bounds, bounds[1:])])
    return gold, system


def _lines(sentences):
    return [(" ".join(words) + "\n").encode("utf-8") for words in sentences]


@given(pair=resegmented())
def test_counts_rates_and_perfect_score(pair):
    gold, system = pair
    result = score_lines(_lines(gold), _lines(system), set())
    assert result.true_words == sum(map(len, gold))
    assert result.test_words == sum(map(len, system))
    for rate in (result.precision, result.recall, result.f1):
        assert 0.0 <= rate <= 1.0
    assert (result.f1 == 1.0) == (gold == system)
    assert result.oov_rate == 1.0  # an empty word list: every gold word is OOV
    assert result.oov_recall == pytest.approx(result.recall)


@given(pair=resegmented(), data=st.data())
def test_a_changed_character_is_named_by_its_line(pair, data):
    gold, system = pair
    line = data.draw(st.integers(0, len(system) - 1))
    word = data.draw(st.integers(0, len(system[line]) - 1))
    replacement = data.draw(HAN)
    assume(replacement != system[line][word][0])
    system[line][word] = replacement + system[line][word][1:]
    with pytest.raises(LineMismatchError) as error:
        score_lines(_lines(gold), _lines(system), set())
    assert error.value.line_no == line + 1


@given(pair=resegmented(), data=st.data())
def test_a_missing_or_extra_line_is_an_error(pair, data):
    gold, system = pair
    if data.draw(st.booleans()):
        del system[data.draw(st.integers(0, len(system) - 1))]
    else:
        system.insert(data.draw(st.integers(0, len(system))), data.draw(SENTENCE))
    with pytest.raises(LineMismatchError):
        score_lines(_lines(gold), _lines(system), set())

"""doc._.gap_probs: boundary probabilities per gap between characters (boundary_probabilities.py)."""
import itertools

import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacy_cws.decoding.bmes_tags import starts_from_tags
from spacy_cws.decoding.viterbi import ALLOWED_ENDS, ALLOWED_STARTS, ALLOWED_TRANSITIONS, viterbi_bmes
from spacy_cws.features.character_view import Normaliser
from spacy_cws.features.chunking import chunk_spans
from spacy_cws.segmenter.boundary_probabilities import (
    bmes_marginals,
    character_gap_probabilities,
    unit_start_probabilities,
)

TEXT_PARTS = st.sampled_from(["上海浦东", "开发", " ", "\u3000", "\n", "ABC", "3.5%", "Москва", "e\u0301", "。"])


def _ctb6_dev_texts(shared_data, n=40):
    lines = (shared_data / "ctb6" / "dev.seg").read_text(encoding="utf8").splitlines()
    return ["".join(line.split()) for line in lines[:n] if line.strip()]


def _boundaries(doc):
    """bool (len(text) - 1,): whether a token edge lies at each gap."""
    edges = numpy.zeros(len(doc.text) + 1, dtype=bool)
    for token in doc:
        edges[token.idx] = edges[token.idx + len(token.text)] = True
    return edges[1:-1]


def test_gap_probs_agree_with_the_words_on_ctb6_dev(zh_cws_gd_sm_nlp, shared_data):
    texts = _ctb6_dev_texts(shared_data)
    for doc in zh_cws_gd_sm_nlp.pipe(texts):
        probs = doc._.gap_probs
        assert probs.dtype == numpy.float32 and probs.shape == (len(doc.text) - 1,)
        assert ((probs >= 0) & (probs <= 1)).all()
        # Head 0's softmax above 0.5 is exactly the greedy decoder's boundary.
        numpy.testing.assert_array_equal(probs > 0.5, _boundaries(doc))


def test_gap_probs_at_whitespace_runs_and_edges(zh_cws_gd_sm_nlp):
    doc = zh_cws_gd_sm_nlp("他买了 iPhone 12，花了3500元。")
    probs = doc._.gap_probs
    text = doc.text
    for i in range(len(text) - 1):
        if text[i].isspace() or text[i + 1].isspace():
            assert probs[i] == 1.0
    start = text.index("iPhone")
    assert (probs[start : start + 5] == 0).all()  # inside a Latin word
    assert (probs[text.index("3500") : text.index("3500") + 3] == 0).all()  # inside a number
    assert zh_cws_gd_sm_nlp("")._.gap_probs.shape == (0,)
    assert zh_cws_gd_sm_nlp("好")._.gap_probs.shape == (0,)


@pytest.mark.parametrize("name", ["zh_cws_gd", "zh_cws_gd_sm"])
def test_a_cluster_is_its_base_character_to_the_model(name):
    """Never a boundary inside a grapheme cluster (0), and the gap after it
    has the model's probability for the gap after its base character: the
    words and probabilities of the text without the variation selectors."""
    from ..conftest import shipped_pipeline

    nlp = shipped_pipeline(name)
    for text, selector in [("我\ufe0f们是中国人", 1), ("他\ufe0e说好", 1), ("中\U000E0100文", 1), ("中\ufe0f文", 1)]:
        doc, plain = nlp(text), nlp(text[:selector] + text[selector + 1 :])
        assert doc._.gap_probs[selector - 1] == 0, text
        numpy.testing.assert_allclose(numpy.delete(doc._.gap_probs, selector - 1), plain._.gap_probs, atol=1e-6)
        words = [token.text for token in plain]
        words[0] = words[0][:selector] + text[selector] + words[0][selector:]
        assert [token.text for token in doc] == words, text


def _reference_gap_probs(text, view, spans, span_probs):
    """The definition, gap by gap: 1 next to whitespace, 0 inside a unit, else
    the probability that the unit after the gap starts a word (its
    sequence's, or 1 after whitespace and at a word-of-its-own run)."""
    unit_of = {}
    for unit, (start, end) in enumerate(zip(view.starts.tolist(), view.ends.tolist())):
        unit_of.update({position: unit for position in range(start, end)})
    starting = {}
    for (start, end), probs in zip(spans, span_probs):
        for unit in range(start, end):
            starting[unit] = 1.0 if view.spaced[unit] or view.alone[unit] else float(probs[unit - start])
    gaps = []
    for i in range(len(text) - 1):
        if i not in unit_of or i + 1 not in unit_of:
            gaps.append(1.0)
        elif unit_of[i] == unit_of[i + 1]:
            gaps.append(0.0)
        else:
            gaps.append(starting[unit_of[i + 1]])
    return gaps


@given(
    st.lists(st.lists(TEXT_PARTS, max_size=6).map("".join), max_size=6),
    st.integers(min_value=1, max_value=6),
    st.randoms(use_true_random=False),
)
def test_character_gap_probabilities_of_a_batch(texts, max_length, rng):
    """Texts laid end to end get, each, the probabilities of the definition
    (empty and whitespace-only texts, runs and clusters at their edges,
    several sequences per text)."""
    normaliser = Normaliser()
    views = [normaliser(text) for text in texts]
    spans = [chunk_spans(view.symbols, max_length) for view in views]
    probs = [
        [numpy.array([rng.random() for _ in range(end - start)], dtype=numpy.float32) for start, end in s]
        for s in spans
    ]
    batch = character_gap_probabilities(texts, views, spans, probs)
    assert len(batch) == len(texts)
    for gaps, text, view, text_spans, text_probs in zip(batch, texts, views, spans, probs):
        assert gaps.dtype == numpy.float32 and gaps.shape == (max(len(text) - 1, 0),)
        assert gaps.tolist() == pytest.approx(_reference_gap_probs(text, view, text_spans, text_probs)), text


def test_segment_with_probs_matches_segment_texts(zh_cws_gd_sm_nlp, shared_data):
    segmenter = zh_cws_gd_sm_nlp.get_pipe("gd_segmenter")
    texts = _ctb6_dev_texts(shared_data, 10) + ["边境城市" * 200]  # a text cut into several sequences
    words, probs = segmenter.segment_with_probs(texts)
    for expected, got, text, text_probs in zip(segmenter.segment_texts(texts), words, texts, probs):
        numpy.testing.assert_array_equal(expected, got)
        assert len(text_probs) == len(text) - 1


def _brute_force_marginals(emissions, start, transitions, end):
    n = len(emissions)
    marginals = numpy.zeros((n, 4))
    total = 0.0
    for tags in itertools.product(range(4), repeat=n):
        if not (ALLOWED_STARTS[tags[0]] and ALLOWED_ENDS[tags[-1]]):
            continue
        if not all(ALLOWED_TRANSITIONS[a, b] for a, b in zip(tags, tags[1:])):
            continue
        score = start[tags[0]] + end[tags[-1]] + sum(emissions[i, t] for i, t in enumerate(tags))
        score += sum(transitions[a, b] for a, b in zip(tags, tags[1:]))
        weight = numpy.exp(score)
        total += weight
        for i, t in enumerate(tags):
            marginals[i, t] += weight
    return marginals / total


def test_bmes_marginals_are_exact():
    rng = numpy.random.default_rng(0)
    start, end, transitions = rng.normal(size=4), rng.normal(size=4), rng.normal(size=(4, 4))
    emissions = [rng.normal(size=(n, 4)).astype("float32") for n in (1, 2, 5, 3)]
    for got, seq in zip(bmes_marginals(emissions, start, transitions, end), emissions):
        numpy.testing.assert_allclose(got, _brute_force_marginals(seq, start, transitions, end), atol=1e-5)


def test_bmes_start_probabilities_follow_viterbi_when_confident():
    rng = numpy.random.default_rng(1)
    crf = (numpy.zeros(4), numpy.zeros((4, 4)), numpy.zeros(4))
    tags = numpy.array([0, 2, 3, 0, 1, 2, 3])  # B E S B M E S
    emissions = numpy.full((len(tags), 4), -5.0, dtype="float32")
    emissions[numpy.arange(len(tags)), tags] = 5.0
    emissions += rng.normal(scale=0.1, size=emissions.shape).astype("float32")
    probs = unit_start_probabilities("bmes", [emissions[None]], crf)[0]
    expected = starts_from_tags(viterbi_bmes([emissions], *crf)[0])
    numpy.testing.assert_array_equal(probs > 0.5, expected)
    assert probs[0] == 1.0


def test_unknown_labels_are_refused():
    with pytest.raises(ValueError, match="'gaps' or 'bmes'"):
        unit_start_probabilities("tags", [])


def test_segment_jsonl_probs(zh_cws_gd_sm_nlp, shared_data):
    import json

    from typer.testing import CliRunner

    from spacy_cws.cli import app

    texts = _ctb6_dev_texts(shared_data, 5) + ["", "他买了 iPhone 12。"]
    result = CliRunner().invoke(
        app, ["segment", "-m", "zh_cws_gd_sm", "--format", "jsonl", "--probs"], input="\n".join(texts) + "\n"
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["text"] for record in records] == texts
    for record, doc in zip(records, zh_cws_gd_sm_nlp.pipe(texts)):
        assert record["words"] == [t.text for t in doc if not t.is_space]
        numpy.testing.assert_array_equal(numpy.array(record["gap_probs"], dtype=numpy.float32), doc._.gap_probs)
    refused = CliRunner().invoke(app, ["segment", "-m", "zh_cws_gd_sm", "--probs"], input="今天\n")
    assert refused.exit_code == 1 and "--probs writes jsonl" in refused.stderr

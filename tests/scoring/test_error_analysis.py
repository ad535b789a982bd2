"""The error analysis behind ``report``: official measures, buckets, error kinds."""
import pytest

from spacy_cws.scoring.error_analysis import analyse_files, analyse_lines, error_kind
from spacy_cws.scoring.sighan import score_files


def _lines(*lines):
    return [line.encode("utf-8") + b"\n" for line in lines]


@pytest.fixture(scope="module")
def ctb6_files(shared_data, tmp_path_factory):
    """300 CTB6 test sentences: gold, jieba's segmentation, and the training words."""
    jieba = pytest.importorskip("jieba", reason="jieba (extra 'test') segments the system file")
    folder = tmp_path_factory.mktemp("ctb6")
    gold = (shared_data / "ctb6" / "test.seg").read_text(encoding="utf-8").split("\n")[:300]
    (folder / "gold.txt").write_text("".join(line + "\n" for line in gold), encoding="utf-8")
    system = [" ".join(word for word in jieba.cut(line.replace(" ", "")) if word.strip()) for line in gold]
    (folder / "jieba.txt").write_text("".join(line + "\n" for line in system), encoding="utf-8")
    words = {word for line in (shared_data / "ctb6" / "train.seg").open(encoding="utf-8") for word in line.split()}
    (folder / "words.txt").write_text("".join(word + "\n" for word in sorted(words)), encoding="utf-8")
    return folder


def test_error_kinds():
    assert error_kind(["中国", "人民"], ["中国人民"]) == "merge"
    assert error_kind(["中国人民"], ["中国", "人民"]) == "split"
    assert error_kind(["中国", "人民"], ["中", "国人民"]) == "other"


def test_hand_made_errors_are_counted_with_context():
    gold = _lines("他 说 中国 人民 银行 很 好", "中国人民 银行")
    system = _lines("他 说 中国人民 银行 很 好", "中国 人民 银行")
    analysis = analyse_lines("sys", gold, system, {"中国".encode()})
    assert analysis.error_counts == {"split": 1, "merge": 1, "other": 0}
    patterns = {(p.kind, p.gold, p.system): p for p in analysis.patterns}
    merge = patterns[("merge", "中国 人民", "中国人民")]
    assert merge.count == 1
    assert (merge.examples[0].line_no, merge.examples[0].left, merge.examples[0].right) == (1, "他 说", "银行 很 好")
    assert patterns[("split", "中国人民", "中国 人民")].examples[0].line_no == 2
    # Of the four 2-character gold words, 中国 and 人民 are missed; so is 中国人民 (4).
    assert analysis.word_length_recall[2] == (4 - 2, 4)
    assert analysis.word_length_recall[4] == (0, 1)


def test_gold_against_itself_has_no_errors(ctb6_files):
    gold = ctb6_files / "gold.txt"
    [analysis] = analyse_files(gold, {"gold": gold}, ctb6_files / "words.txt")
    assert analysis.score.f1 == 1.0
    assert sum(analysis.error_counts.values()) == 0 and analysis.patterns == []


def test_measures_are_the_official_scorer(ctb6_files):
    gold, system, words = ctb6_files / "gold.txt", ctb6_files / "jieba.txt", ctb6_files / "words.txt"
    [analysis] = analyse_files(gold, {"jieba": system}, words)
    assert analysis.score == score_files(gold, system, words)
    # Every gold word falls in one word-length class, and every non-empty line in one bucket.
    assert sum(total for _, total in analysis.word_length_recall.values()) == analysis.score.true_words
    bucket_scores = [score for _, score in analysis.buckets.values() if score is not None]
    assert sum(score.true_words for score in bucket_scores) == analysis.score.true_words
    assert sum(lines for lines, _ in analysis.buckets.values()) == 300
    # Unmatched gold words all sit in some error; jieba makes errors of each kind.
    assert all(count > 0 for count in analysis.error_counts.values())
    counts = [pattern.count for pattern in analysis.patterns]
    assert counts == sorted(counts, reverse=True) and len(counts) == 50


def test_misaligned_system_is_named(ctb6_files, tmp_path):
    shorter = tmp_path / "short.txt"
    shorter.write_bytes(b"".join((ctb6_files / "jieba.txt").read_bytes().splitlines(keepends=True)[:299]))
    with pytest.raises(ValueError, match="line 300"):
        analyse_files(ctb6_files / "gold.txt", {"short": shorter}, ctb6_files / "words.txt")

"""Reading lexicons: the jieba/pkuseg user-dictionary format, jieba's own dictionary, training words."""
import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_cws.corpora.formats import read_segmented
from spacy_cws.lexicon import Lexicon, jieba_lexicon, load_lexicon, read_user_dictionary, training_lexicon
from spacy_cws.lexicon.sources import MAX_LINE_WARNINGS, UserDictionaryWarning


def test_user_dictionary_lines(tmp_path, recwarn):
    path = tmp_path / "user.txt"
    path.write_bytes(
        "\ufeff云计算 5 n\n韩玉鉴赏\nColor OS\t3\tnz\nSK-II nz\n\n5w-30\t2\n台中 7\n云计算 9 v\n"
        "Windows 10\t\n大  数据\t\tn\n".encode("utf-8")
    )
    lexicon = read_user_dictionary(path)
    assert list(lexicon) == ["云计算", "韩玉鉴赏", "Color OS", "SK-II", "5w-30", "台中", "Windows 10", "大  数据"]
    assert (lexicon["云计算"].frequency, lexicon["云计算"].pos) == (5, "n")  # the first entry wins
    assert (lexicon["韩玉鉴赏"].frequency, lexicon["韩玉鉴赏"].pos) == (None, None)
    assert (lexicon["Color OS"].frequency, lexicon["SK-II"].pos, lexicon["5w-30"].frequency) == (3, "nz", 2)
    assert (lexicon["Windows 10"].frequency, lexicon["大  数据"].pos) == (None, "n")
    assert Lexicon.from_list(lexicon.to_list()).to_list() == lexicon.to_list()
    assert not [w for w in recwarn if issubclass(w.category, UserDictionaryWarning)]


@pytest.mark.parametrize(
    "line,entry,named",
    [
        ("云计算 abc n", ["云计算", None, "abc"], "'n' left over"),
        ("大数据 3 n extra", ["大数据", 3, "n"], "'extra' left over"),
        ("Color OS", ["Color", None, "OS"], "'OS' is no POS tag"),
    ],
)
def test_user_dictionary_line_read_two_ways_is_warned_about(tmp_path, line, entry, named):
    """Issue 39, item 5: these lines were read silently as the words
    '云计算 abc', '大数据 3 n' and 'Color' (POS 'OS'): each is now read by
    one rule, with a warning naming the file and line."""
    path = tmp_path / "user.txt"
    path.write_text(f"北京 ns\n{line}\n", encoding="utf-8")
    with pytest.warns(UserDictionaryWarning) as warned:
        lexicon = read_user_dictionary(path)
    assert lexicon.to_list() == [["北京", None, "ns"], entry]
    assert [str(w.message).split(": ")[0] for w in warned] == [f"{path}:2"]
    assert named in str(warned[0].message) and "tabs" in str(warned[0].message)


def test_user_dictionary_warnings_are_capped(tmp_path):
    path = tmp_path / "user.txt"
    path.write_text("".join(f"New York{i}\n" for i in range(25)), encoding="utf-8")
    with pytest.warns(UserDictionaryWarning) as warned:
        assert len(read_user_dictionary(path)) == 1  # "New" 25 times, POS "York0"
    assert len(warned) == MAX_LINE_WARNINGS + 1 and "15 more line(s)" in str(warned[-1].message)


def test_user_dictionary_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="Lexicon file not found"):
        read_user_dictionary(tmp_path / "missing.txt")
    with pytest.raises(IsADirectoryError, match="is a folder, not a file"):
        read_user_dictionary(tmp_path)
    tab_first = tmp_path / "tab_first.txt"
    tab_first.write_text("北京 ns\n\t5\tn\n", encoding="utf-8")
    with pytest.raises(ValueError, match="tab_first.txt:2: no word before the first tab"):
        read_user_dictionary(tab_first)
    gbk = tmp_path / "gbk.txt"
    gbk.write_bytes("中国 3 ns\n人民 5 n\n".encode("gbk"))
    with pytest.raises(ValueError, match=r"gbk.txt:1: not UTF-8"):
        read_user_dictionary(gbk)
    with pytest.raises(ValueError, match="non-space"):
        Lexicon(["  "])


def test_jieba_dictionary_is_read_from_the_installed_package():
    lexicon = load_lexicon("jieba")
    assert len(lexicon) > 340_000
    assert lexicon["中华人民共和国"].pos == "ns" and lexicon["中华人民共和国"].frequency > 0
    assert "AT&T" in lexicon
    assert len(jieba_lexicon()) == len(lexicon)


def test_training_lexicon_has_the_corpus_word_types(shared_data):
    sentences = list(read_segmented(shared_data / "ctb6" / "dev.seg", "sighan"))
    vocab = Vocab()
    docs = [Doc(vocab, words=s.words, spaces=[False] * len(s.words)) for s in sentences]
    lexicon = training_lexicon(docs)
    words = [w for s in sentences for w in s.words]
    assert len(lexicon) == len(set(words))
    assert sum(lexicon[w].frequency for w in lexicon) == len(words)


def test_zx_word_pos_lexicon_counts_tags_and_round_trips(shared_data, tmp_path):
    from collections import Counter

    from spacy_cws.corpora.catalog import get_corpus
    from spacy_cws.lexicon.sources import tagged_corpus_lexicon, write_user_dictionary

    path = get_corpus("zx").path(shared_data, "train")
    lexicon = tagged_corpus_lexicon(path)
    tokens = Counter(word for sentence in read_segmented(path, "wordpos") for word in sentence.words)
    assert {word: entry.frequency for word, entry in lexicon.items()} == dict(tokens)
    pairs = Counter(tuple(t.rsplit("_", 1)) for line in open(path, encoding="utf-8") for t in line.split())
    for word in ["的", "道人", "法宝", "青云"]:
        assert lexicon[word].pos == max((n, -i, tag) for i, ((w, tag), n) in enumerate(pairs.items()) if w == word)[2]
    write_user_dictionary(lexicon, tmp_path / "zx.txt")
    assert read_user_dictionary(tmp_path / "zx.txt").to_list() == lexicon.to_list()
    spaced = Lexicon()
    spaced.add("Windows 10")  # tab-separated, so not read back as "Windows" with frequency 10
    spaced.add("Color OS", 5, "nz")
    write_user_dictionary(spaced, tmp_path / "spaced.txt")
    assert read_user_dictionary(tmp_path / "spaced.txt").to_list() == spaced.to_list()
    bad = Lexicon()
    bad.add("a\tb")
    with pytest.raises(ValueError, match="cannot be written"):
        write_user_dictionary(bad, tmp_path / "bad.txt")

"""scripts/tag_variants.py: ZX-style word-POS lexicons retagged by whether jieba's dictionary holds the word."""
import sys
from pathlib import Path

import pytest

from spacy_cws.lexicon.lexicon import Lexicon
from spacy_cws.lexicon.sources import jieba_lexicon, read_user_dictionary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import tag_variants  # noqa: E402


@pytest.fixture(scope="module")
def zx_style_lexicon() -> Lexicon:
    """Words as ZX's training words carry them (count, CTB tag): 修炼 and 法宝
    are in jieba's dictionary (v, nz), 戾气 and 青云门 are not."""
    lexicon = Lexicon()
    for word, count, tag in [("修炼", 5, "VV"), ("法宝", 45, "NN"), ("戾气", 12, "NN"), ("青云门", 57, "NR")]:
        lexicon.add(word, count, tag)
    return lexicon


@pytest.fixture(scope="module")
def jieba():
    return jieba_lexicon()


def tags(lexicon: Lexicon) -> dict:
    return {word: lexicon[word].pos for word in lexicon}


def test_each_variant_takes_the_tags_it_names(zx_style_lexicon, jieba):
    variants = {name: tag_variants.retagged(zx_style_lexicon, jieba, retag) for name, retag in tag_variants.VARIANTS.items()}
    assert tags(variants["jieba_tags"]) == {"修炼": "v", "法宝": "nz", "戾气": "NN", "青云门": "NR"}
    assert tags(variants["jieba_tags_only"]) == {"修炼": "v", "法宝": "nz", "戾气": None, "青云门": None}
    assert tags(variants["tags_of_jieba_words"]) == {"修炼": "VV", "法宝": "NN", "戾气": None, "青云门": None}
    for variant in variants.values():  # the words and their ZX counts are kept
        assert [(word, variant[word].frequency) for word in variant] == [(w, zx_style_lexicon[w].frequency) for w in zx_style_lexicon]


def test_the_script_writes_files_the_user_dictionary_reader_reads_back(zx_style_lexicon, tmp_path):
    source = tmp_path / "words_pos.txt"
    source.write_text("".join(f"{w} {zx_style_lexicon[w].frequency} {zx_style_lexicon[w].pos}\n" for w in zx_style_lexicon), encoding="utf-8")
    tag_variants.main(source, tmp_path / "variants")
    written = read_user_dictionary(tmp_path / "variants" / "tags_of_jieba_words.txt")
    assert tags(written) == {"修炼": "VV", "法宝": "NN", "戾气": None, "青云门": None}
    assert sorted(path.name for path in (tmp_path / "variants").iterdir()) == sorted(f"{name}.txt" for name in tag_variants.VARIANTS)

"""Hypothesis strategies for Chinese text as it comes: mostly Han characters,
with punctuation, digits, Latin, emoji and every kind of whitespace and line
separator mixed in, and now and then any Unicode character at all."""
from hypothesis import strategies as st

HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
AWKWARD = st.sampled_from(
    list(" \t\n\r\v\f\x1c\x85\u00a0\u2028\u2029\u3000\ufeff\u200b，。！？、“”（）")
    + list("0123456789０１２３ABCabcｉＰｈｏｎｅ.%％-")
    + ["😀", "👍", "\U0001f3fd", "🇨", "🇳", "é", "\u0301", "龘", "ㄅ", "가"]
)
ANY = st.characters(exclude_categories=["Cs"])  # any code point a Python str can encode to UTF-8

# Texts up to 150 characters: longer than the tiny test model's max_length (64),
# so that chunking and reassembly are exercised too.
TEXT = st.text(alphabet=st.one_of(HAN, HAN, AWKWARD, ANY), max_size=150)

# A word as corpora have them: non-empty, no whitespace.
WORD = st.text(
    alphabet=st.one_of(HAN, st.sampled_from(list("，。！０１２3aZ％😀"))), min_size=1, max_size=4
)
SENTENCE = st.lists(WORD, min_size=1, max_size=12)

# Letters of many scripts, their combining marks and joiners, beside Han text,
# digits, punctuation, whitespace and control characters.
LETTERS = st.sampled_from(
    list("aZéßıŁǅﬁΩαλДжԱաႠაאשابกขकखअ가힣가あんアンｱ") + ["\u0301", "\u0308", "\u0e31", "\u093f", "\u05b7", "\u064e"]
)
JOINERS = st.sampled_from(list("'’-‐·ー._ 　,，。0123456789\x1b\x00\t"))
SCRIPT_TEXT = st.text(alphabet=st.one_of(HAN, LETTERS, LETTERS, JOINERS), max_size=120)

# Words of one script (not Han: a Han word is the model's to find) with the
# format characters written inside words between letters (soft hyphen, ZWNJ
# as in Persian "می\u200cخواهم", ZWJ) and variation selectors after letters
# (VS1-VS16, VS17-VS256), beside Han characters with a variation selector
# (a cluster: "我\ufe0f们"), Han text, punctuation and whitespace. Each draw is
# (text, gaps): gap i lies between text[i - 1] and text[i], inside a word.
FORMAT_CHARACTERS = st.sampled_from(["\u00ad", "\u200c", "\u200d"])
VARIATION_SELECTORS = st.one_of(
    st.characters(min_codepoint=0xFE00, max_codepoint=0xFE0F),
    st.characters(min_codepoint=0xE0100, max_codepoint=0xE01EF),
)
SCRIPT_LETTERS = [
    "aZéßıŁ", "Ωαλ", "Джы", "Աա", "Ⴀა", "אש", "ابیخ", "กข", "कखअ", "가힣", "あん", "アンｱ", "ㄅㄆ",
]


@st.composite
def format_word(draw):
    letters = draw(st.sampled_from(SCRIPT_LETTERS))
    word = draw(st.sampled_from(letters))
    for _ in range(draw(st.integers(1, 4))):
        word += draw(st.one_of(st.just(""), VARIATION_SELECTORS)) + draw(st.one_of(st.just(""), FORMAT_CHARACTERS))
        word += draw(st.sampled_from(letters))
    return word + draw(st.one_of(st.just(""), VARIATION_SELECTORS))


@st.composite
def format_texts(draw):
    text, gaps = "", []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["word", "han", "cluster", "between"]))
        if kind == "word":
            word = draw(format_word())
            gaps += range(len(text) + 1, len(text) + len(word))
        else:
            between = st.sampled_from([" ", "，", "\u3000", "1"])
            word = {"han": HAN, "cluster": st.tuples(HAN, VARIATION_SELECTORS).map("".join), "between": between}[kind]
            word = draw(word)
        text += word
    return text, gaps

"""Properties of reading input: ``segment`` gives back exactly the lines it
was given, whatever they hold, and a segmented corpus line gives back its
words, whatever whitespace separates them."""
import io
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from tqdm import tqdm

from spacy_cws.streaming.lines import stream_input_lines
from spacy_cws.corpora.formats import read_segmented

from .strategies import SENTENCE, TEXT

# A line as a file holds it: no "\n" inside, not ending in "\r" (which,
# followed by the line end "\n", would read as a "\r\n" line end), and not
# starting with U+FEFF, which at the start of a file is its byte order mark
# ("\ufeff\n\ufeff" loses its "\n" and would keep one after removeprefix).
LINE = TEXT.map(lambda text: text.replace("\n", "").rstrip("\r").lstrip("\ufeff"))


@given(lines=st.lists(LINE, min_size=1, max_size=8), line_end=st.sampled_from(["\n", "\r\n"]), bom=st.booleans())
def test_segment_reads_back_every_line(lines, line_end, bom):
    data = ("\ufeff" if bom else "") + "".join(line + line_end for line in lines)
    stream = io.BytesIO(data.encode("utf-8"))
    with tqdm(disable=True) as progress:
        read = list(stream_input_lines(stream, "input", progress, max_length=10_000))
    assert [line.text for line in read] == lines
    assert [line.end for line in read] == [line_end] * len(lines)


SEPARATOR = st.text(alphabet=st.sampled_from(list(" \t\u3000\u00a0\u2028\v\f")), min_size=1, max_size=3)


@given(sentences=st.lists(SENTENCE, min_size=1, max_size=6), data=st.data())
def test_corpus_line_gives_back_its_words(sentences, data):
    lines = [data.draw(SEPARATOR).join(words) for words in sentences]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "corpus.utf8"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        assert [sentence.words for sentence in read_segmented(path)] == sentences

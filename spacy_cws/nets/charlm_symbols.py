"""A character LM folder (``pretrain-charlm``) and the LM token of each symbol a segmenter reads, without torch.

A segmenter reads normalised symbols (features/character_view.py): full-width
forms folded to half-width, a number as ``"0"``, a Latin word as ``"X"``. The
LM read the raw text, so a folded symbol may stand for either form; it takes
the form the LM saw more often (its vocabulary is ordered by frequency,
charlm/character_vocab.py). The specials map to the LM's: PAD to [PAD], UNK
to [UNK], and the GD-Transformer's BOS and EOS to [CLS] and [SEP], the
tokens around every pretraining sequence.
"""
from pathlib import Path
from typing import Dict, Sequence, Union

import numpy

from ..features.symbol_specials import BOS, EOS, N_SPECIAL_SYMBOLS, PAD, UNK

# The files a folder written by ``pretrain-charlm`` (transformers' save_pretrained) holds.
CHARLM_FILES = ("config.json", "vocab.txt")
SPECIAL_TOKENS = {PAD: "[PAD]", UNK: "[UNK]", BOS: "[CLS]", EOS: "[SEP]"}
_FULL_WIDTH_OFFSET = 0xFEE0  # U+0021..U+007E -> U+FF01..U+FF5E


def charlm_folder(path: Union[str, Path]) -> Path:
    """``path`` as the folder of a character LM.
    RAISES ValueError: naming the folder and the command that writes one, when
        it lacks config.json, vocab.txt or the weights."""
    folder = Path(path)
    missing = [name for name in CHARLM_FILES if not (folder / name).is_file()]
    if not any((folder / name).is_file() for name in ("model.safetensors", "pytorch_model.bin")):
        missing.append("model.safetensors")
    if missing:
        raise ValueError(
            f"charlm_path {folder} is not a character LM folder (it lacks {', '.join(missing)}): give the "
            "'model' folder that `python -m spacy project run pretrain-charlm` writes (training/charlm/model)"
        )
    return folder


def read_vocab(folder: Path) -> Dict[str, int]:
    """The LM's token ids by token, from its vocab.txt (one token a line, id = line number)."""
    tokens = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    return {token: index for index, token in enumerate(tokens) if token}


def lm_token_ids(symbols: Sequence[str], vocab: Dict[str, int]) -> numpy.ndarray:
    """int64 (4 + len(symbols),): per unigram id (the specials, then the
    symbols: features/symbol_ids.py) the LM's token id. A symbol the LM does
    not know in either width is its [UNK].
    RAISES ValueError: if the vocabulary lacks one of the special tokens."""
    absent = [token for token in SPECIAL_TOKENS.values() if token not in vocab]
    if absent:
        raise ValueError(f"The character LM's vocab.txt lacks the special tokens {absent}")
    ids = numpy.empty(N_SPECIAL_SYMBOLS + len(symbols), dtype=numpy.int64)
    for special, token in SPECIAL_TOKENS.items():
        ids[special] = vocab[token]
    for index, symbol in enumerate(symbols, start=N_SPECIAL_SYMBOLS):
        forms = [symbol]
        if 0x21 <= ord(symbol) <= 0x7E:
            forms.append(chr(ord(symbol) + _FULL_WIDTH_OFFSET))
        known = [vocab[form] for form in forms if form in vocab]
        ids[index] = min(known) if known else vocab["[UNK]"]
    return ids

"""``spacy-cws.TokenVectorsToCharacters.v1``: any token encoder as the MWA
enricher's character encoder.

The encoder under ``spacy-cws.MWAEnricher.v1`` gives one vector per character
of doc.text. This layer runs a token-level model (spaCy's
``spacy.HashEmbedCNN.v2``, spacy-transformers' listener, ...) and gives each
character its token's vector. With ``spacy-cws.CharPretokenizer.v1`` every
token is one character, so the token vectors are the character vectors; with
word tokens all characters of a word share one vector, and word-aligned
attention cannot tell them apart.
"""
from typing import Callable, List, Optional, Tuple

from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model, Ops
from thinc.types import Floats2d

from .token_pooling import token_character_positions

InT = List[Doc]
OutT = List[Floats2d]
TOK2VEC_REF = "tok2vec"


@registry.architectures("spacy-cws.TokenVectorsToCharacters.v1")
def build_token_vectors_to_characters(tok2vec: Model[InT, OutT], width: int) -> Model[InT, OutT]:
    """tok2vec: Docs -> per Doc (len(doc), width) token vectors. width: its
    output width, the nO of this layer.

    Output: per Doc a float32 array (len(doc.text), width), one row per
    character: the vector of the token holding it, zeros for whitespace in no
    token. Backprop sums each token's character gradients into the token's
    gradient and passes it to tok2vec. A tok2vec of another width raises
    ValueError in the forward pass. The token encoder is the ref "tok2vec",
    where ``spacy pretrain`` and ``[initialize] init_tok2vec`` find it.
    """
    return Model(
        "token_vectors_to_characters",
        forward,
        init=init,
        layers=[tok2vec],
        refs={TOK2VEC_REF: tok2vec},
        dims={"nO": width},
    )


def init(model: Model, X: Optional[InT] = None, Y=None) -> None:
    model.layers[0].initialize(X=X)


def forward(model: Model, docs: InT, is_train: bool) -> Tuple[OutT, Callable]:
    tokens, backprop_tokens = model.layers[0](docs, is_train)
    chars, backprop_chars = spread_to_characters(model.ops, docs, tokens, model.get_dim("nO"))

    def backprop(d_chars: OutT) -> List:
        return backprop_tokens(backprop_chars(d_chars))

    return chars, backprop


def spread_to_characters(ops: Ops, docs: InT, tokens: OutT, width: int) -> Tuple[OutT, Callable[[OutT], OutT]]:
    """Token vectors (len(doc), width) -> character vectors (len(doc.text),
    width): each character gets its token's row, characters in no token get
    zeros. The backprop callback sums the rows of each token's characters.
    RAISES ValueError when a Doc's vectors are not ``width`` wide."""
    alignments = []
    chars = []
    for doc, T in zip(docs, tokens):
        positions, lengths = token_character_positions(doc)
        positions, lengths = ops.asarray(positions), ops.asarray1i(lengths)
        C = ops.alloc2f(len(doc.text), width)
        if len(lengths):
            if T.shape[1] != width:
                raise ValueError(
                    f"The character encoder has width {width}, but its token vectors are {T.shape[1]} wide: "
                    "set the width to the token encoder's (for a transformer: the model's hidden_size)."
                )
            C[positions] = ops.backprop_reduce_sum(T, lengths)
        alignments.append((positions, lengths))
        chars.append(C)

    def backprop(d_chars: OutT) -> OutT:
        return [
            ops.reduce_sum(dC[positions], lengths) if len(lengths) else ops.alloc2f(0, width)
            for (positions, lengths), dC in zip(alignments, d_chars)
        ]

    return chars, backprop

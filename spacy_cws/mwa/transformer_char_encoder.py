"""spaCy-transformers' ``transformer`` component as the character encoder of
the MWA enricher: ``spacy-cws.TransformerCharEncoder.v1``.

Li et al. (2020, "Enhancing Pre-trained Chinese Character Representation with
Word-aligned Attention", section 2.1) take the last layer of a Chinese BERT
(or ERNIE, BERT-wwm) as the character representations H under the
word-aligned attention. Here an upstream ``transformer`` component runs the
model, shared with any other listener, and this layer reads its output through
spacy-transformers' TransformerListener, pooled to tokens, and spreads the
token vectors onto the characters of doc.text, the input contract of
``spacy-cws.MWAEnricher.v1``'s encoder (as ``spacy-cws.MWACharEncoder.v1``).

With ``spacy-cws.CharPretokenizer.v1`` every token is one character, so a
Chinese BERT's wordpieces align with the characters; a digit or Latin run that
is one wordpiece gives all its characters that wordpiece's vector. With word
tokens all characters of a word get the same vector (the mean of the word's
wordpieces), so the word-aligned attention cannot tell them apart.

Gradients: the enricher's character gradients are summed per token, averaged
back onto the wordpieces, scaled by grad_factor and handed to the
``transformer`` component's callback, which sums them with those of its
other listeners before the backward pass through the model. As with any
spacy-transformers listener, nlp.update steps the transformer's weights in
its finish_update, right after ``Transformer.update``, so each batch's
gradients are applied at the next update.

``spacy-cws.LocalTransformerModel.v1`` is spacy-transformers'
``TransformerModel.v3`` for a model that must be in a local folder: it checks
the folder when the pipeline is initialized, so nothing is ever looked up on
the Hugging Face hub.

spacy-transformers is an optional dependency, imported when a model is built.
"""
from pathlib import Path
from typing import Callable, List, Optional

from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model, reduce_mean
from thinc.types import Floats2d

from .token_vectors_to_characters import build_token_vectors_to_characters

InT = List[Doc]
OutT = List[Floats2d]


@registry.architectures("spacy-cws.TransformerCharEncoder.v1")
def build_transformer_char_encoder(width: int, grad_factor: float = 1.0, upstream: str = "*") -> Model[InT, OutT]:
    """Character vectors from an upstream ``transformer`` component.

    width (int): the transformer's hidden size (768 for BERT-base), the nO of
        this layer. A transformer of another width raises ValueError in the
        first forward pass.
    grad_factor (float): scales the gradients handed to the transformer (0
        freezes it with respect to the MWA enricher), as in
        ``spacy-transformers.TransformerListener.v1``.
    upstream (str): the transformer component's name, or '*' for any.

    Output: per Doc a float32 array (len(doc.text), width), one row per
    character: the vector of the token holding it (the mean of the token's
    wordpiece vectors), zeros for whitespace in no token and for tokens that
    no wordpiece covers. Backprop sums each token's character gradients into
    the token's gradient and passes it on to the transformer component (whose
    weights its own finish_update changes).
    """
    from spacy_transformers.architectures import transformer_listener_tok2vec_v1

    tokens = transformer_listener_tok2vec_v1(pooling=reduce_mean(), grad_factor=grad_factor, upstream=upstream)
    # Vectors of the right shape (zeros) before the transformer has annotated the Docs.
    tokens.get_ref("listener").set_dim("nO", width)
    return build_token_vectors_to_characters(tokens, width)


@registry.architectures("spacy-cws.LocalTransformerModel.v1")
def build_local_transformer_model(
    name: Optional[str],
    get_spans: Callable,
    tokenizer_config: dict = {},
    transformer_config: dict = {},
    mixed_precision: bool = False,
    grad_scaler_config: dict = {},
) -> Model:
    """``spacy-transformers.TransformerModel.v3`` (same arguments) whose
    ``name`` must be a local folder holding a Hugging Face model and its
    tokenizer (``save_pretrained``). Initializing raises ValueError when name
    is null or not a folder, instead of trying the hub. A pipeline loaded
    from disk needs no folder: the weights are in the pipeline."""
    from spacy_transformers.layers import TransformerModel

    model = TransformerModel(name, get_spans, tokenizer_config, transformer_config, mixed_precision, grad_scaler_config)
    model.init = init_local_transformer
    return model


def init_local_transformer(model: Model, X: Optional[InT] = None, Y=None) -> None:
    from spacy_transformers.layers.transformer_model import init as init_transformer

    path = model.attrs["name"]
    if not model.attrs["has_transformer"]:
        if path is None:
            raise ValueError(
                "No transformer model folder: set paths.bert (e.g. --paths.bert /models/bert-base-chinese) "
                "to a local folder holding a Hugging Face model saved with save_pretrained; nothing is downloaded."
            )
        if not Path(path).is_dir():
            raise ValueError(
                f"The transformer model folder '{path}' (paths.bert) does not exist or is not a folder: "
                "it must hold a Hugging Face model and tokenizer saved with save_pretrained; nothing is downloaded."
            )
    init_transformer(model, X, Y)

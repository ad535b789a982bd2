"""Character LM features in the GD-Transformer (``spacy-cws.GDTransformer.v4`` with ``charlm_path``) and the
SAN-CRF (``spacy-cws.BMESTagger.v3``): the symbols' LM tokens, a frozen LM whose vectors are contextual and
independent of the batch, training that moves only the projection, and a saved pipeline that predicts as it
did."""
import numpy
import pytest

from spacy_cws.charlm.character_vocab import character_vocab
from spacy_cws.nets.charlm_symbols import charlm_folder, lm_token_ids, read_vocab

from ..adaptation.conftest import zx_raw_lines
from ..segmentation_data import SENTENCES, TEXTS, blank_pipeline, make_examples
from ..training.test_configs import _changed, _train, tiny_corpus  # noqa: F401  (a fixture)

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

POSITIONS = 32


@pytest.fixture(scope="module")
def charlm(shared_data, tmp_path_factory):
    """A tiny BERT (untrained) with the vocabulary pretrain-charlm builds from 400 lines of ZX, saved as
    pretrain-charlm saves its model folder."""
    folder = tmp_path_factory.mktemp("charlm")
    tokens = character_vocab(zx_raw_lines(shared_data, 400) + TEXTS, min_count=1)
    (folder / "vocab.txt").write_text("\n".join(tokens) + "\n", encoding="utf-8")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=len(tokens), hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
        max_position_embeddings=POSITIONS, pad_token_id=0,
    )
    transformers.BertForMaskedLM(config).save_pretrained(str(folder))
    return folder


def test_each_symbol_reads_the_lm_token_of_its_more_frequent_width(charlm):
    vocab = read_vocab(charlm)
    ids = lm_token_ids([",", "中", "0", "\u2e80"], vocab)
    assert list(ids[:4]) == [vocab["[PAD]"], vocab["[UNK]"], vocab["[CLS]"], vocab["[SEP]"]]
    # The segmenter folds "，" to ","; ZX writes the full-width comma, so the LM knows it better.
    assert ids[4] == vocab["，"] and ids[5] == vocab["中"] and ids[7] == vocab["[UNK]"]
    assert ids[6] == min(vocab[form] for form in ("0", "０") if form in vocab)


def test_a_folder_without_an_lm_is_refused_naming_what_to_give(tmp_path, charlm):
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="lacks vocab.txt, model.safetensors.*pretrain-charlm"):
        charlm_folder(tmp_path)
    assert charlm_folder(charlm) == charlm


ARCHITECTURES = {
    "gd": {"@architectures": "spacy-cws.GDTransformer.v4"},
    "san_crf": {"@architectures": "spacy-cws.BMESTagger.v3", "unigram_width": 16, "bigram_width": 0, "window": 5,
                "decoder": "crf"},
}


def _pipeline(charlm, max_length=POSITIONS - 2, architecture="gd", **model):
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={
        "model": {**ARCHITECTURES[architecture], "width": 32, "depth": 2, "n_heads": 4, "ff_width": 64,
                  "dropout": 0.0, "charlm_path": str(charlm), **model},
        "max_length": max_length, "batch_units": 256, "inference_backend": "torch",
    })
    return nlp


def _module(nlp):
    return nlp.get_pipe("gd_segmenter").model.attrs["torch_module"]


@pytest.mark.parametrize("architecture", list(ARCHITECTURES))
def test_training_moves_the_projection_and_not_the_frozen_lm(charlm, architecture):
    nlp = _pipeline(charlm, architecture=architecture, charlm_layers=2)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    module = _module(nlp)
    lm_before = {name: p.detach().clone() for name, p in module.charlm.encoder.named_parameters()}
    projection_before = module.charlm.projection.weight.detach().clone()
    for _ in range(3):
        nlp.update(examples, sgd=optimizer)
    assert all(torch.equal(p, lm_before[name]) for name, p in module.charlm.encoder.named_parameters())
    assert not torch.equal(module.charlm.projection.weight, projection_before)
    assert not module.charlm.encoder.training  # no dropout in the LM, even in training


def test_the_vectors_are_contextual_and_independent_of_the_batch(charlm):
    nlp = _pipeline(charlm)
    nlp.initialize(lambda: make_examples(nlp))
    segmenter, charlm_features = nlp.get_pipe("gd_segmenter"), _module(nlp).charlm
    symbols = "".join(segmenter.featurizer.symbols)
    sequences = ["国务院批准了", "这些城市去年完成国内生产总值"]
    ids = torch.zeros(2, 16, dtype=torch.long)
    for row, text in enumerate(sequences):
        ids[row, 0], ids[row, len(text) + 1] = 2, 3
        ids[row, 1 : len(text) + 1] = torch.tensor([symbols.index(c) + 4 for c in text])
    lengths = torch.tensor([len(text) + 2 for text in sequences])
    together = charlm_features(ids, lengths)
    alone = charlm_features(ids[:1, :8], lengths[:1])
    assert torch.allclose(together[0, :8], alone[0], atol=1e-5)
    # 城 reads its neighbours: with 些 before it replaced, its vector changes.
    shifted = ids.clone()
    shifted[1, 2] = ids[0, 2]
    changed = charlm_features(shifted, lengths)
    assert not torch.allclose(changed[1, 3], together[1, 3], atol=1e-4)


def test_the_tagger_reads_each_sequence_between_cls_and_sep_as_the_gd_transformer(charlm):
    """The SAN-CRF's sequences carry no BOS and EOS; the LM still reads [CLS] sequence [SEP], so each
    character gets the vector the GD-Transformer's edged sequence gives it."""
    nlp = _pipeline(charlm, architecture="san_crf")
    nlp.initialize(lambda: make_examples(nlp))
    segmenter, charlm_features = nlp.get_pipe("gd_segmenter"), _module(nlp).charlm
    saved = transformers.BertModel.from_pretrained(str(charlm), add_pooling_layer=False)
    for name, weight in saved.named_parameters():  # the tagger's initialisation leaves the LM's weights alone
        assert torch.equal(weight, dict(charlm_features.encoder.named_parameters())[name]), name
    symbols = "".join(segmenter.featurizer.symbols)
    sequences = ["国务院批准了", "这些城市去年完成国内生产总值"]
    bare, edged = torch.zeros(2, 14, dtype=torch.long), torch.zeros(2, 16, dtype=torch.long)
    for row, text in enumerate(sequences):
        ids = torch.tensor([symbols.index(c) + 4 for c in text])
        bare[row, : len(text)] = ids
        edged[row, 0], edged[row, 1 : len(text) + 1], edged[row, len(text) + 1] = 2, ids, 3
    lengths = torch.tensor([len(text) for text in sequences])
    inner = charlm_features.without_edges(bare, lengths)
    full = charlm_features(edged, lengths + 2)
    for row, text in enumerate(sequences):
        assert torch.allclose(inner[row, : len(text)], full[row, 1 : len(text) + 1], atol=1e-5)


@pytest.mark.parametrize("architecture", list(ARCHITECTURES))
def test_a_saved_pipeline_predicts_as_it_did_with_the_lm_where_its_config_says(charlm, tmp_path, architecture):
    nlp = _pipeline(charlm, architecture=architecture)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(5):
        nlp.update(examples, sgd=optimizer)
    nlp.to_disk(tmp_path / "pipeline")
    import shutil

    import spacy

    moved = shutil.copytree(charlm, tmp_path / "lm-elsewhere")
    with pytest.raises(ValueError, match="not a character LM folder"):
        spacy.load(tmp_path / "pipeline", config={"components": {"gd_segmenter": {"model": {"charlm_path": "gone"}}}})
    loaded = spacy.load(
        tmp_path / "pipeline", config={"components": {"gd_segmenter": {"model": {"charlm_path": str(moved)}}}}
    )
    assert loaded.get_pipe("gd_segmenter").model.attrs["charlm_path"] == moved
    for text in TEXTS[:3]:
        before, after = nlp(text), loaded(text)
        assert [t.text for t in before] == [t.text for t in after] and after.text == text
        numpy.testing.assert_allclose(before._.gap_probs, after._.gap_probs, atol=1e-5)


@pytest.mark.parametrize("architecture", list(ARCHITECTURES))
def test_sequences_longer_than_the_lm_reads_are_refused_naming_max_length(charlm, architecture):
    nlp = _pipeline(charlm, max_length=64, architecture=architecture)
    examples = make_examples(nlp, [SENTENCES[1] * 3])
    with pytest.raises(ValueError, match=f"set the segmenter's max_length to {POSITIONS - 2} or less"):
        optimizer = nlp.initialize(lambda: examples)
        nlp.update(examples, sgd=optimizer)


@pytest.mark.parametrize("config", ["cpu_charlm", pytest.param("cpu_san_crf_charlm", marks=pytest.mark.slow)])
def test_the_config_trains_with_the_lm_and_without_it(charlm, tiny_corpus, config):  # noqa: F811
    """configs/cpu_charlm.cfg (GD-Transformer) and cpu_san_crf_charlm.cfg (SAN-CRF) through spaCy's
    training loop, with a (tiny) LM and with --paths.charlm null."""
    nlp, before, after = _train(config, tiny_corpus, **{
        "paths.charlm": str(charlm), "components.gd_segmenter.max_length": POSITIONS - 2})
    assert any(name.startswith("charlm.projection") for name in _changed(before, after))
    assert not any(name.startswith("charlm.encoder") for name in _changed(before, after))
    assert all(nlp(text).text == text for text in TEXTS)
    plain, before, after = _train(config, tiny_corpus, **{"paths.charlm": None})
    assert _changed(before, after) and not any(name.startswith("charlm") for name in after)

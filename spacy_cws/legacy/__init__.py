"""Architectures kept for pipelines saved with them, as spacy-legacy keeps spaCy's.

Nothing imports this package when ``spacy_cws`` is imported: setup.cfg's
``spacy_architectures`` entry points name its functions, and spaCy's registry
imports them only when a config names ``spacy-cws.GDTransformer.v1`` or
``spacy-cws.BMESTagger.v1``. New configs take the ``.v2`` architectures.
"""

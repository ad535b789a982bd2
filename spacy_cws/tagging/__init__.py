"""Part-of-speech tags: the PKU tagset of People's Daily 1998 and its mapping
to Universal Dependencies' UPOS (docs/guides/part-of-speech.md)."""

# The components behind the segmenter in a tagging pipeline
# (configs/tagged_pipeline.cfg); words only: spacy.load(name, exclude=TAGGING_COMPONENTS).
TAGGING_COMPONENTS = ("tok2vec", "tagger", "attribute_ruler")

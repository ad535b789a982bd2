"""Adapting a trained segmenter to a user's domain from raw text alone (``python -m spacy_cws adapt``).

- raw_text.py: reading the user's UTF-8 text files, one text a line.
- lexicon_mining.py: domain words mined from the raw text (accessor variety,
  PMI, the model's own confident words), written as a user dictionary.
- self_training.py: fine-tuning on the model's own confident gaps (partial
  labels; the others are masked out of the loss), held near the shipped
  weights.
"""

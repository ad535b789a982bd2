"""Adapting a trained segmenter to a user's domain from raw text alone (``python -m spacy_cws adapt``).

- raw_text.py: reading the user's UTF-8 text files, one text a line.
- lexicon_mining.py: domain words mined from the raw text (accessor variety,
  PMI, branching entropy, the model's own confident words), written as a
  user dictionary, the words the model does not know first.
- model_agreement.py: what the model made of each occurrence of a candidate
  (a confident word, cut inside, doubted), for that ranking.
- self_training.py: fine-tuning on the model's own confident gaps (partial
  labels; the others are masked out of the loss), held near the shipped
  weights.
"""

"""Text to model input, the ground floor: the character view (Normaliser,
runs), the symbol ids, the hashed trigrams and the cutting of a text into
model sequences. Numpy only; imports nothing else of spacy_cws."""

"""The special symbol ids every segmentation model and its features share.

Unigram and bigram ids (symbol_ids.py) start after these; the
torch modules pad with PAD, and the GD-Transformer's input has BOS and EOS
around each sequence (nets/feature_batch.py). A plain module: importing it
needs no torch.
"""
PAD, UNK, BOS, EOS = 0, 1, 2, 3
N_SPECIAL_SYMBOLS = 4

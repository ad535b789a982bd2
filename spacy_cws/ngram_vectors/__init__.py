"""Pretrained character (unigram) and bigram embeddings for the segmentation
models (Ma et al. 2018, Wang & Xu 2017): word2vec over the raw text
of training splits, copied into the models' embedding tables at initialize."""
from .ngram_tokens import bigram_key, ngram_sequences, split_bigram_key
from .ngram_vectors import NgramVectors
from .pretraining import pretrain_ngram_vectors

__all__ = ["NgramVectors", "bigram_key", "ngram_sequences", "pretrain_ngram_vectors", "split_bigram_key"]

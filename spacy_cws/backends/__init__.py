"""The networks of a segmenter at inference: run by torch or by ONNX Runtime.

A network object takes a batch of feature arrays (segmenter/featurizer.py)
and returns per sequence its float32 scores as numpy, and gives the decoder
of those scores (decoding/word_start_decoders.py). ``choice.py`` says which
backend runs a segmenter's network; ``onnx_export.py`` writes the graph that
``onnx_network.py`` runs.
"""

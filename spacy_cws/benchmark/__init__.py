"""Benchmark of spacy-cws pipelines against peer Chinese word segmenters.

``peers``: one loader per peer segmenter and the registry of peer kinds.
``run``: the harness (test set preparation, one worker process per peer,
official SIGHAN scores, speed and memory, JSON lines and a Markdown table).
"""

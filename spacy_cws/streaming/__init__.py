"""Segmenting a stream of documents, one a line, with memory that does not grow
with the stream: the library behind ``python -m spacy_cws segment`` and its
Ray engine (spacy_cws/distributed/ray_engine.py).

- lines.py: reading input lines (line ends, UTF-8, JSON lines).
- pipeline.py: the pipeline of a run and the segmenter that does its work.
- segmentation.py: the words of each line, in order (one process, forked
  workers (processes.py) or ``nlp.pipe``), and the output lines.
- formats.py: an output line's text (plain or JSON lines).
- output.py: writing the output; resume.py: continuing an interrupted run.
"""

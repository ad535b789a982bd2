"""The error for a saved pipeline whose file is damaged or missing (e.g. its ONNX graph).

Library code raises it where loading or running a pipeline finds such a
file; the command line says its message in one line. It is a ValueError, as
every other "this saved pipeline cannot be loaded" error of spacy-cws.
"""

# How to get a good copy: the end of every DamagedPipelineError's message.
GOOD_COPY = (
    "Reinstall the pipeline package it came from (pip install --force-reinstall with the package's file or name), "
    "or write the folder again the way it was written (python -m spacy_cws adapt or export-onnx, or nlp.to_disk)."
)


class DamagedPipelineError(ValueError):
    """A file of a saved pipeline is damaged or missing: the message names the
    file, says what is wrong with it and how to get a good copy (GOOD_COPY)."""

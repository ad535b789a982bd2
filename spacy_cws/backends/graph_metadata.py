"""What an exported segmentation graph says about itself, in its ONNX metadata.

onnx_export.py writes these keys into the graph's metadata_props;
onnx_network.py reads them from ONNX Runtime's InferenceSession. Values are strings
(ONNX's metadata is a string map); the CRF's scores are JSON. A plain module:
importing it needs neither torch nor ONNX Runtime.
"""
import json
from typing import Dict, Optional

from ..decoding.word_start_decoders import CrfScores

FORMAT = "spacy-cws.graph.v1"
FORMAT_KEY = "spacy_cws.format"
LABELS_KEY = "spacy_cws.labels"
LONGEST_KEY = "spacy_cws.longest"  # the longest padded batch length the graph takes
CRF_KEY = "spacy_cws.crf"  # start (4,), transitions (4, 4), end (4,)
# "int8" in a graph whose products by weights are int8 (matmul_quantization.py); absent: float32.
PRODUCTS_KEY = "spacy_cws.products"


def graph_metadata(labels: str, longest: int, crf: Optional[CrfScores]) -> Dict[str, str]:
    """The metadata of a graph predicting ``labels`` for padded lengths up to ``longest``.

    crf: a BMES tagger's CRF scores (float32 arrays, written exactly: JSON
        floats round-trip them), or None.
    """
    metadata = {FORMAT_KEY: FORMAT, LABELS_KEY: labels, LONGEST_KEY: str(int(longest))}
    if crf is not None:
        metadata[CRF_KEY] = json.dumps([part.tolist() for part in crf])
    return metadata


def read_metadata(metadata: Dict[str, str]):
    """(labels, longest, crf or None) of a graph's metadata.

    RAISES ValueError: for a graph that spacy-cws did not export (another format).
    """
    if metadata.get(FORMAT_KEY) != FORMAT:
        raise ValueError(
            f"the ONNX graph is not a spacy-cws segmentation network of format '{FORMAT}' "
            f"(its format: {metadata.get(FORMAT_KEY)!r}): export it again with export_onnx()"
        )
    crf = json.loads(metadata[CRF_KEY]) if CRF_KEY in metadata else None
    return metadata[LABELS_KEY], int(metadata[LONGEST_KEY]), crf


def graph_products(metadata: Dict[str, str]) -> str:
    """What a graph computes its products by weights in: "float32" or "int8"."""
    return metadata.get(PRODUCTS_KEY, "float32")

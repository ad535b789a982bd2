"""The model a ``gd_segmenter`` gets where its config names none: the GD-Transformer
of Duan & Zhao (2020) at the paper's size (configs/paper.cfg), without bigram embeddings."""
from thinc.api import Config

DEFAULT_MODEL_CONFIG = """
[model]
@architectures = "spacy-cws.GDTransformer.v2"
width = 256
depth = 6
n_heads = 4
ff_width = 1024
dropout = 0.1
attention_dropout = 0.0
sigma = 4.0
gaussian = true
directional = true
encoders = ["centre", "forward", "backward"]
fusion = "gate"
position = "none"
hired = true
highway_input = true
highway_output = true
bigram_width = 0
"""
DEFAULT_MODEL = Config().from_str(DEFAULT_MODEL_CONFIG)["model"]

"""A BERT-style masked character LM pretrained on the raw text of the training
splits at hand (no Chinese BERT can be downloaded here), written as a folder
that transformers and spacy-transformers load by path, offline."""

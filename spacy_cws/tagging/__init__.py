"""Part-of-speech tags: the PKU tagset of People's Daily 1998 and its mapping
to Universal Dependencies' UPOS (docs/guides/part-of-speech.md)."""

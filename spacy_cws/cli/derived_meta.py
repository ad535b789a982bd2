"""The meta.json of a pipeline that a command made from another (adapt, export-onnx).

Such a pipeline has new weights or a new lexicon, so its words differ from
its source's: it gets its own name, none of the source's scores (spacy
package would ship them as its own), and a record of the pipeline it was
made from. The rest (license, sources, requirements) is the source's.
"""
from typing import Optional

# meta.json fields holding scores measured on a pipeline: spaCy's
# (performance; accuracy and speed in pipelines of spaCy 2) and model-meta's (build_meta).
MEASURED_FIELDS = ("performance", "accuracy", "speed", "spacy_cws_test_scores", "spacy_cws_speed")
# spaCy's version of a pipeline that has none yet (`spacy package --version` gives one).
NEW_VERSION = "0.0.0"


def derived_meta(source: dict, command: str, suffix: str, what: str, domain: Optional[dict] = None) -> dict:
    """meta.json fields of a pipeline that ``command`` made from the pipeline whose meta is ``source``.

    name: the source's with ``_suffix`` (once); version: NEW_VERSION; no
    MEASURED_FIELDS; description: the source (named with its version), ``what``
    was done to it, and that the new pipeline's scores are not measured;
    spacy_cws_source: the source's name and version, the command, and the
    source's own spacy_cws_source where it has one. domain: the raw text a
    pipeline was adapted to (spacy_cws_domain), or None to keep the source's.
    """
    meta = {key: value for key, value in source.items() if key not in MEASURED_FIELDS}
    name, version = source.get("name", "pipeline"), source.get("version", NEW_VERSION)
    record = {"name": name, "version": version, "command": f"spacy_cws {command}"}
    if "spacy_cws_source" in source:
        record["source"] = source["spacy_cws_source"]
    meta.update(
        name=name if name.endswith(f"_{suffix}") else f"{name}_{suffix}",
        version=NEW_VERSION,
        description=(
            f"Made by spacy_cws {command} from {source.get('lang', 'zh')}_{name} {version}: {what}. Its scores are "
            "not measured: the source's do not hold for it (spacy_cws evaluate measures them)."
        ),
        spacy_cws_source=record,
    )
    if domain is not None:
        meta["spacy_cws_domain"] = domain
    return meta

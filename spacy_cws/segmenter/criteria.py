"""Segmentation criteria: which standard (corpus) a text is segmented by.

A multi-criteria model (Qiu et al. 2020) learns one criterion embedding per
training corpus. Each training Doc names its corpus in ``doc._.cws_criterion``
(set by conversion); at inference a Doc's own ``doc._.cws_criterion`` wins over
the component's default ``criterion`` setting. A single-criterion model has no
criteria and ignores both.
"""
from typing import Iterable, List, Optional, Sequence


def training_criteria(names: Iterable[Optional[str]], default: Optional[str], component: str) -> List[str]:
    """The sorted criteria of the training Docs (a Doc without one counts as ``default``).

    RAISES ValueError: if a Doc has no criterion and there is no default, or the
        default criterion is given but no training Doc has it.
    """
    seen = {name or default for name in names}
    if None in seen:
        raise ValueError(
            f"'{component}' is multi-criteria but a training Doc has no criterion: convert the corpus "
            "with `python -m spacy_cws convert --criterion NAME` (or prepare), or set the component's "
            "'criterion' setting as the default"
        )
    if default is not None and default not in seen:
        raise ValueError(
            f"'{component}' has the default criterion '{default}', which no training Doc has "
            f"(the training criteria are {', '.join(sorted(seen))})"
        )
    return sorted(seen)


def criterion_ids(
    names: Sequence[Optional[str]], criteria: Sequence[str], default: Optional[str], component: str
) -> List[int]:
    """Per text the index of its criterion in ``criteria``: its own name, else
    ``default``. All 0 when ``criteria`` is empty (a single-criterion model).

    RAISES ValueError: naming the known criteria, for an unknown name or for a
        text with no criterion and no default.
    """
    if not criteria:
        return [0] * len(names)
    index = {name: i for i, name in enumerate(criteria)}
    ids = []
    for name in names:
        chosen = name or default
        if chosen not in index:
            known = ", ".join(criteria)
            if chosen is None:
                raise ValueError(
                    f"'{component}' serves several criteria ({known}) and this text has none: set "
                    "doc._.cws_criterion or the component's 'criterion' setting"
                )
            raise ValueError(f"Unknown criterion '{chosen}' for '{component}': the known criteria are {known}")
        ids.append(index[chosen])
    return ids


def check_new_criterion(name: str, criteria: Sequence[str], component: str) -> None:
    """RAISES ValueError: unless ``criteria`` are a multi-criteria model's
    (not empty) and ``name`` is not one of them (Segmenter.add_criterion)."""
    if not criteria:
        raise ValueError(
            f"'{component}' has no criteria: only a multi-criteria segmenter (trained with "
            "multi_criteria = true) can learn a new one"
        )
    if name in criteria:
        raise ValueError(f"'{component}' already has the criterion '{name}' (criteria: {', '.join(criteria)})")

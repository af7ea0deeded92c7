#!/usr/bin/python3
"""PyTorch reference for strata's training speed.

Trains the reference Transformer (model.py) on random token ids for --steps
updates with fairseq's recipe: label-smoothed cross-entropy (pads ignored,
loss normalised by the number of target tokens), Adam(0.9, 0.98, 1e-8) and
the inverse-square-root learning-rate schedule with linear warmup. The first
--warmup-steps updates are not timed. Progress goes to stderr; the result is
one JSON line on stdout.

    /usr/bin/python3 bench/reference/train_transformer.py --steps 30
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
import torch.nn.functional as F

from blasinfo import blas_kernel  # noqa: E402
from model import EOS, FIRST_WORD, PAD, Config, Transformer  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=30, help="timed updates")
    p.add_argument("--warmup-steps", type=int, default=3, help="untimed updates run first")
    p.add_argument("--batch-sentences", type=int, default=64)
    p.add_argument("--src-len", type=int, default=32, help="source tokens per sentence, EOS included")
    p.add_argument("--tgt-len", type=int, default=32, help="target tokens per sentence, EOS included")
    p.add_argument("--vocab", type=int, default=8000)
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--ffn-dim", type=int, default=1024)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=6, help="encoder layers = decoder layers")
    p.add_argument("--norm", choices=["post", "pre"], default="post")
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--attention-dropout", type=float, default=0.0)
    p.add_argument("--activation-dropout", type=float, default=0.0)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--lr", type=float, default=5e-4, help="peak learning rate")
    p.add_argument("--lr-warmup-updates", type=int, default=4000)
    p.add_argument("--warmup-init-lr", type=float, default=-1,
                   help="LR at update 0; -1 means fairseq's default (0 when warming up)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", help="write the trained state_dict here (torch.save)")
    return p.parse_args()


def label_smoothed_loss(logits, target, eps):
    """fairseq's label_smoothed_nll_loss, summed over non-pad tokens:
    (1 - eps - eps/(V-1)) * nll + eps/(V-1) * sum_v(-log p_v)."""
    lprobs = F.log_softmax(logits.float(), dim=-1).view(-1, logits.size(-1))
    target = target.reshape(-1, 1)
    nll = -lprobs.gather(dim=-1, index=target)
    smooth = -lprobs.sum(dim=-1, keepdim=True)
    keep = target.ne(PAD)
    nll, smooth = nll[keep].sum(), smooth[keep].sum()
    eps_i = eps / (lprobs.size(-1) - 1)
    return (1.0 - eps - eps_i) * nll + eps_i * smooth, nll


class InverseSqrtSchedule:
    """fairseq's inverse_sqrt: after n updates the LR is
    init + n*(peak-init)/warmup while n < warmup, else peak*sqrt(warmup/n)."""

    def __init__(self, optimizer, peak, warmup, init):
        self.optimizer = optimizer
        self.peak = peak
        self.warmup = warmup
        self.init = (0.0 if warmup > 0 else peak) if init < 0 else init

    def set(self, num_updates):
        if num_updates < self.warmup:
            lr = self.init + num_updates * (self.peak - self.init) / self.warmup
        else:
            lr = self.peak * (self.warmup / num_updates) ** 0.5
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        return lr


def random_batches(args, count):
    """count batches of random ids; every sentence ends in EOS, none padded.
    The decoder input is the target shifted right behind EOS (fairseq)."""
    gen = torch.Generator().manual_seed(args.seed)
    batches = []
    for _ in range(count):
        src = torch.randint(FIRST_WORD, args.vocab, (args.batch_sentences, args.src_len), generator=gen)
        tgt = torch.randint(FIRST_WORD, args.vocab, (args.batch_sentences, args.tgt_len), generator=gen)
        src[:, -1] = EOS
        tgt[:, -1] = EOS
        prev = torch.cat([torch.full_like(tgt[:, :1], EOS), tgt[:, :-1]], dim=1)
        batches.append((src, prev, tgt))
    return batches


def train_step(model, optimizer, schedule, batch, num_updates, eps):
    src, prev, tgt = batch
    lr = schedule.set(num_updates)
    optimizer.zero_grad(set_to_none=True)
    loss, nll = label_smoothed_loss(model(src, prev), tgt, eps)
    ntokens = tgt.ne(PAD).sum().item()
    (loss / ntokens).backward()
    optimizer.step()
    return loss.item() / ntokens, nll.item() / ntokens, lr


def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    cfg = Config(vocab=args.vocab, dim=args.dim, ffn_dim=args.ffn_dim, heads=args.heads,
                 layers=args.layers, dropout=args.dropout, attention_dropout=args.attention_dropout,
                 activation_dropout=args.activation_dropout, pre_norm=args.norm == "pre")
    model = Transformer(cfg)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-8)
    schedule = InverseSqrtSchedule(optimizer, args.lr, args.lr_warmup_updates, args.warmup_init_lr)
    total = args.warmup_steps + args.steps
    batches = random_batches(args, total)
    tokens_per_step = args.batch_sentences * args.tgt_len

    losses, timed, cpu = [], 0.0, 0.0
    for step, batch in enumerate(batches):
        start, cpu_start = time.perf_counter(), time.process_time()
        loss, nll, lr = train_step(model, optimizer, schedule, batch, step, args.label_smoothing)
        elapsed = time.perf_counter() - start
        if step >= args.warmup_steps:
            timed += elapsed
            cpu += time.process_time() - cpu_start
        losses.append(loss)
        print(f"step {step + 1}/{total} loss {loss:.4f} nll {nll:.4f} lr {lr:.3e} "
              f"{tokens_per_step / elapsed:.0f} tok/s{'' if step >= args.warmup_steps else ' (warmup)'}",
              file=sys.stderr, flush=True)

    if args.save:
        torch.save({"config": cfg.as_dict(), "model": model.state_dict()}, args.save)
    result = {
        "impl": "pytorch",
        "bench": "train",
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "blas": blas_kernel(),
        "norm": args.norm,
        "params": sum(p.numel() for p in model.parameters()),
        "steps": args.steps,
        "warmup_steps": args.warmup_steps,
        "tgt_tokens_per_step": tokens_per_step,
        "seconds": round(timed, 3),
        "cpu_seconds": round(cpu, 3),
        "step_ms": round(1000 * timed / max(args.steps, 1), 1),
        "tokens_per_s": round(tokens_per_step * args.steps / timed, 1) if timed > 0 else None,
        "loss_first": round(losses[0], 4),
        "loss_last": round(losses[-1], 4),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

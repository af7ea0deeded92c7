#!/usr/bin/python3
"""Replays a strata training run in the PyTorch reference (model.py).

strata's test train/torch_parity_test.go writes a JSON file with a model
shape, its initial weights (by fairseq parameter name), a list of batches
and the optimiser settings. This script loads the same weights into the
reference Transformer, computes the first batch's gradient, then trains on
the batches with fairseq's recipe written out here (label-smoothed
cross-entropy over non-pad tokens, gradient divided by the number of target
tokens, fairseq's Adam with eps added to sqrt(v), inverse-sqrt schedule whose
first update runs at the warm-up initial rate), and prints one JSON object:
the first gradient, the loss of every update (bits per target token) and
the final weights, for the Go test to compare.

    /usr/bin/python3 bench/reference/strata_parity.py spec.json > out.json
"""

import json
import math
import os
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import model as ref  # noqa: E402


def reference_name(name):
    """strata's fairseq parameter name -> this model's attribute path."""
    if name == "encoder.embed_tokens.weight":
        return "embed.weight"
    if name in ("encoder.layer_norm.weight", "encoder.layer_norm.bias"):
        return "encoder_norm." + name.rsplit(".", 1)[1]
    if name in ("decoder.layer_norm.weight", "decoder.layer_norm.bias"):
        return "decoder_norm." + name.rsplit(".", 1)[1]
    side, _, index, rest = name.split(".", 3)
    prefix = f"{side}_layers.{index}."
    for ours, theirs in (
        ("self_attn_layer_norm.", "attn_block.norm." if side == "encoder" else "self_block.norm."),
        ("encoder_attn_layer_norm.", "cross_block.norm."),
        ("final_layer_norm.", "ffn_block.norm."),
        ("fc1.", "ffn.fc1."),
        ("fc2.", "ffn.fc2."),
    ):
        if rest.startswith(ours):
            return prefix + theirs + rest[len(ours):]
    return prefix + rest  # self_attn.*, encoder_attn.*


def loss_sum(logits, target, eps, pad):
    """fairseq's label_smoothed_nll_loss summed over non-pad tokens."""
    lprobs = F.log_softmax(logits, dim=-1).view(-1, logits.size(-1))
    target = target.reshape(-1, 1)
    keep = target.ne(pad).view(-1)
    nll = -lprobs.gather(dim=-1, index=target).view(-1)[keep].sum()
    smooth = -lprobs.sum(dim=-1)[keep].sum()
    eps_i = eps / (lprobs.size(-1) - 1)
    return (1.0 - eps - eps_i) * nll + eps_i * smooth, int(keep.sum())


def batch_tensors(b):
    shape = lambda key, n: torch.tensor(b[key], dtype=torch.long).view(b["B"], n)  # noqa: E731
    return shape("src", b["S"]), shape("tgt_in", b["T"]), shape("tgt_out", b["T"])


def gradient(model, b, eps, pad):
    model.zero_grad()
    src, tgt_in, tgt_out = batch_tensors(b)
    loss, tokens = loss_sum(model(src, tgt_in), tgt_out, eps, pad)
    loss.backward()
    for p in model.parameters():
        p.grad /= tokens
    return loss.item() / tokens / math.log(2)


def main():
    spec = json.load(open(sys.argv[1]))
    ref.PAD = spec["pad"]  # model.py reads the global when it builds and runs
    c = spec["config"]
    cfg = ref.Config(vocab=c["vocab"], dim=c["dim"], ffn_dim=c["ffn"], heads=c["heads"], layers=c["layers"],
                     dropout=0.0, attention_dropout=0.0, activation_dropout=0.0, pre_norm=spec["norm"] == "pre")
    model = ref.Transformer(cfg).train()
    params = dict(model.named_parameters())
    by_strata = {}
    with torch.no_grad():
        for name, values in spec["params"].items():
            p = params[reference_name(name)]
            p.copy_(torch.tensor(values, dtype=torch.float32).view_as(p))
            by_strata[name] = p
    if len(by_strata) != len(params):
        missing = set(params) - {reference_name(n) for n in by_strata}
        sys.exit(f"strata_parity: reference parameters without a strata value: {sorted(missing)}")

    eps, pad = spec["label_smoothing"], spec["pad"]
    gradient(model, spec["batches"][0], eps, pad)
    first_grad = {n: p.grad.view(-1).tolist() for n, p in by_strata.items()}

    # fairseq's Adam and inverse_sqrt schedule, as strata's train package.
    o = spec["optim"]
    b1, b2 = o["beta1"], o["beta2"]
    m = {n: torch.zeros_like(p) for n, p in by_strata.items()}
    v = {n: torch.zeros_like(p) for n, p in by_strata.items()}
    losses = []
    for step, b in enumerate(spec["batches"], start=1):
        losses.append(gradient(model, b, eps, pad))
        n = step - 1
        if n < o["warmup"]:
            lr = o["warmup_init"] + n * (o["lr"] - o["warmup_init"]) / o["warmup"]
        else:
            lr = o["lr"] * math.sqrt(max(o["warmup"], 1)) / math.sqrt(max(n, 1))
        step_size = lr * math.sqrt(1 - b2 ** step) / (1 - b1 ** step)
        with torch.no_grad():
            for name, p in by_strata.items():
                m[name].mul_(b1).add_(p.grad, alpha=1 - b1)
                v[name].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                p.addcdiv_(m[name], v[name].sqrt().add_(o["eps"]), value=-step_size)
    json.dump({"first_grad": first_grad, "losses": losses,
               "final": {n: p.detach().view(-1).tolist() for n, p in by_strata.items()}}, sys.stdout)


if __name__ == "__main__":
    main()

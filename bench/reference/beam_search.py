"""Batched beam search with fairseq's SequenceGenerator semantics.

Written for the benchmark from fairseq's documented behaviour:
  * decoding starts from EOS; max_len = int(a * S + b), S the padded source
    width of the batch (fairseq counts the source EOS and pads too);
  * each step takes the top 2*beam (score, token) candidates over all beams
    (only beam 0 at step 0); pad is never chosen, EOS is forbidden before
    step min_len and forced at step max_len;
  * a candidate ending in EOS among the top `beam` candidates finalises a
    hypothesis with score cumulative_logprob / (length ** len_penalty),
    length counting the EOS; the `beam` best non-EOS candidates continue;
  * a sentence is done once it has `beam` finalised hypotheses (no early
    stop on score bounds), and done sentences leave the batch;
  * the result per sentence is its finalised list, best score first.

Self-attention keys/values are cached per layer and reordered with the beams;
encoder keys/values are projected once and only re-indexed when sentences
leave the batch (beams of one sentence share them).
"""

import torch

from model import EOS, PAD


class Hypothesis:
    __slots__ = ("tokens", "score")

    def __init__(self, tokens, score):
        self.tokens = tokens  # generated ids, EOS last
        self.score = score  # length-normalised log-probability


def _select_rows(state, rows):
    """Reorders every cached tensor along the batch dimension."""
    for cache in state:
        for key in cache:
            cache[key] = cache[key].index_select(0, rows)


def _finalize(finished, alive, tokens, step, last_step, cand_rows, cand_scores, eos_top, beam, len_penalty):
    """Stores EOS-ending candidates (in candidate order, as fairseq does) and
    returns the batch positions whose sentence is now done: it has `beam`
    hypotheses, or this is the last step."""
    positions, cands = eos_top.nonzero(as_tuple=True)
    rows = cand_rows[positions, cands].tolist()
    scores = cand_scores[positions, cands].tolist()
    prefix = tokens[:, 1:step + 1].tolist()
    touched = []
    for pos, row, score in zip(positions.tolist(), rows, scores):
        sent = alive[pos]
        if len(finished[sent]) < beam:
            finished[sent].append(Hypothesis(prefix[row] + [EOS], score / (step + 1) ** len_penalty))
        touched.append(pos)
    return sorted({p for p in touched if last_step or len(finished[alive[p]]) == beam})


@torch.no_grad()
def beam_search(model, src_tokens, beam=5, max_len_a=1.2, max_len_b=10, len_penalty=1.0, min_len=1):
    """Decodes a (B, S) left-padded batch; returns B lists of Hypothesis."""
    bsz, width = src_tokens.shape
    max_len = min(int(max_len_a * width + max_len_b), model.cfg.max_positions - 1)
    cand_size = 2 * beam

    enc_out, enc_mask = model.encode(src_tokens)
    expand = torch.arange(bsz).repeat_interleave(beam)
    enc_kv = [(k.index_select(0, expand), v.index_select(0, expand)) for k, v in model.encoder_kv(enc_out)]
    enc_mask = None if enc_mask is None else enc_mask.index_select(0, expand)
    caches = [dict() for _ in model.decoder_layers]

    tokens = torch.full((bsz * beam, max_len + 2), PAD, dtype=torch.long)
    tokens[:, 0] = EOS
    scores = torch.zeros(bsz * beam, max_len + 1)
    finished = [[] for _ in range(bsz)]
    alive = list(range(bsz))  # sentence id of each batch position
    ignore = torch.zeros(bsz, beam, dtype=torch.bool)
    cand_offsets = torch.arange(cand_size)

    for step in range(max_len + 1):
        lprobs = model.decode_step(tokens[:, step], step, enc_kv, enc_mask, caches)
        lprobs[:, PAD] = float("-inf")
        if step >= max_len:
            lprobs[:, :EOS] = float("-inf")
            lprobs[:, EOS + 1:] = float("-inf")
        elif step < min_len:
            lprobs[:, EOS] = float("-inf")

        n, vocab = len(alive), lprobs.size(1)
        lprobs = lprobs.view(n, beam, vocab)
        if step == 0:
            lprobs = lprobs[:, :1, :]  # all beams are identical at the start
        else:
            lprobs = lprobs + scores[:, step - 1].view(n, beam, 1)
        flat = lprobs.reshape(n, -1)
        cand_scores, cand_flat = flat.topk(min(cand_size, flat.size(1) - 1), dim=1)
        cand_tokens = cand_flat % vocab
        cand_rows = torch.div(cand_flat, vocab, rounding_mode="floor") + (torch.arange(n) * beam).unsqueeze(1)

        eos_mask = cand_tokens.eq(EOS) & cand_scores.ne(float("-inf"))
        eos_mask[:, :beam] &= ~ignore
        done = []
        if eos_mask[:, :beam].any():
            done = _finalize(finished, alive, tokens, step, step == max_len, cand_rows, cand_scores,
                             eos_mask[:, :beam], beam, len_penalty)
        if len(done) == n:
            break
        assert step < max_len, "beam search reached max_len with unfinished sentences"

        if done:
            keep = torch.tensor([p for p in range(n) if p not in set(done)])
            alive = [alive[p] for p in keep.tolist()]
            eos_mask, ignore = eos_mask[keep], ignore[keep]
            cand_scores, cand_tokens, cand_rows = cand_scores[keep], cand_tokens[keep], cand_rows[keep]

        # The `beam` best candidates that are neither EOS nor ignored go on.
        eos_mask[:, :beam] |= ignore
        rank = eos_mask.long() * cand_size + cand_offsets[:eos_mask.size(1)]
        order, active = rank.topk(beam, dim=1, largest=False)
        ignore = order.ge(cand_size)
        rows = cand_rows.gather(1, active).view(-1)

        tokens = tokens.index_select(0, rows)
        tokens[:, step + 1] = cand_tokens.gather(1, active).view(-1)
        scores = scores.index_select(0, rows)
        scores[:, step] = cand_scores.gather(1, active).view(-1)
        _select_rows(caches, rows)
        if done:  # rows of one sentence share encoder states: re-index only on shrink
            enc_kv = [(k.index_select(0, rows), v.index_select(0, rows)) for k, v in enc_kv]
            enc_mask = None if enc_mask is None else enc_mask.index_select(0, rows)

    return [sorted(hyps, key=lambda h: h.score, reverse=True) for hyps in finished]

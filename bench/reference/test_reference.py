#!/usr/bin/python3
"""Checks of the reference implementation (small model, a few seconds):

    cd bench/reference && /usr/bin/python3 -m unittest test_reference
"""

import math
import unittest

import torch
import torch.nn.functional as F

from beam_search import beam_search
from blasinfo import outputs_fnv64
from model import EOS, PAD, Config, Transformer, make_positions, sinusoidal_table
from train_transformer import InverseSqrtSchedule, label_smoothed_loss


def tiny_model(pre_norm=False, seed=0):
    torch.manual_seed(seed)
    cfg = Config(vocab=40, dim=16, ffn_dim=32, heads=2, layers=2, dropout=0.0, pre_norm=pre_norm)
    return Transformer(cfg).eval()


def sequence_logprob(model, src, hyp):
    """Full teacher-forced log-probability of hyp (ending in EOS) given src."""
    prev = torch.tensor([[EOS] + hyp[:-1]])
    lprobs = F.log_softmax(model(src.unsqueeze(0), prev)[0], dim=-1)
    return sum(lprobs[t, tok].item() for t, tok in enumerate(hyp))


class PositionsTest(unittest.TestCase):
    def test_fairseq_layout(self):
        table = sinusoidal_table(10, 8, PAD)
        self.assertTrue(torch.all(table[PAD] == 0))
        # row p: sin(p * 10000^(-i/3)) for i < 4, then the cosines.
        p = 5
        for i in range(4):
            f = 10000 ** (-i / 3)
            self.assertAlmostEqual(table[p, i].item(), math.sin(p * f), places=5)
            self.assertAlmostEqual(table[p, 4 + i].item(), math.cos(p * f), places=5)

    def test_left_padding_starts_at_pad_plus_one(self):
        tokens = torch.tensor([[PAD, PAD, 7, 8, EOS], [5, 6, 7, 8, EOS]])
        self.assertEqual(make_positions(tokens).tolist(), [[1, 1, 2, 3, 4], [2, 3, 4, 5, 6]])


class LossAndScheduleTest(unittest.TestCase):
    def test_label_smoothing_matches_formula(self):
        torch.manual_seed(0)
        logits = torch.randn(1, 3, 6)
        target = torch.tensor([[2, 4, PAD]])
        loss, nll = label_smoothed_loss(logits, target, 0.1)
        lp = F.log_softmax(logits[0], dim=-1)
        want_nll = -(lp[0, 2] + lp[1, 4])
        smooth = -(lp[0].sum() + lp[1].sum())
        eps_i = 0.1 / 5
        self.assertAlmostEqual(nll.item(), want_nll.item(), places=5)
        self.assertAlmostEqual(loss.item(), ((0.9 - eps_i) * want_nll + eps_i * smooth).item(), places=5)

    def test_inverse_sqrt(self):
        opt = torch.optim.Adam([torch.zeros(1, requires_grad=True)])
        sched = InverseSqrtSchedule(opt, peak=5e-4, warmup=4000, init=-1)
        self.assertEqual(sched.set(0), 0.0)
        self.assertAlmostEqual(sched.set(2000), 2.5e-4)
        self.assertAlmostEqual(sched.set(4000), 5e-4)
        self.assertAlmostEqual(sched.set(16000), 2.5e-4)


class IncrementalDecodingTest(unittest.TestCase):
    def check(self, pre_norm):
        model = tiny_model(pre_norm)
        src = torch.tensor([[PAD, 9, 10, 11, EOS], [12, 13, 14, 15, EOS]])
        prev = torch.tensor([[EOS, 20, 21, 22], [EOS, 23, 24, 25]])
        with torch.no_grad():
            full = F.log_softmax(model(src, prev), dim=-1)
            enc, mask = model.encode(src)
            kv = model.encoder_kv(enc)
            caches = [dict() for _ in model.decoder_layers]
            for t in range(prev.size(1)):
                step = model.decode_step(prev[:, t], t, kv, mask, caches)
                torch.testing.assert_close(step, full[:, t], atol=1e-5, rtol=1e-5)

    def test_post_norm(self):
        self.check(False)

    def test_pre_norm(self):
        self.check(True)


class BeamSearchTest(unittest.TestCase):
    def test_scores_are_normalised_model_scores(self):
        # Sentences finish at different steps, so this also exercises batch
        # shrinking and cache reordering.
        model = tiny_model(seed=3)
        gen = torch.Generator().manual_seed(0)
        src = torch.randint(4, 40, (6, 7), generator=gen)
        src[:, -1] = EOS
        src[0, :3] = PAD
        results = beam_search(model, src, beam=3, max_len_a=0, max_len_b=6)
        for row, hyps in enumerate(results):
            self.assertEqual(len(hyps), 3)
            self.assertEqual([h.score for h in hyps], sorted((h.score for h in hyps), reverse=True))
            unpadded = src[row][src[row].ne(PAD)]
            for h in hyps:
                self.assertEqual(h.tokens[-1], EOS)
                self.assertNotIn(EOS, h.tokens[:-1])
                self.assertLessEqual(len(h.tokens), 7)
                want = sequence_logprob(model, unpadded, h.tokens) / len(h.tokens)
                self.assertAlmostEqual(h.score, want, places=4)

    def test_beam_one_is_greedy(self):
        model = tiny_model(seed=5)
        src = torch.tensor([[5, 6, 7, 8, EOS]])
        hyp = beam_search(model, src, beam=1, max_len_a=0, max_len_b=5)[0][0].tokens
        prefix = []
        with torch.no_grad():
            while len(prefix) < 6:
                prev = torch.tensor([[EOS] + prefix])
                lp = F.log_softmax(model(src, prev)[0, -1], dim=-1)
                lp[PAD] = float("-inf")
                if not prefix:
                    lp[EOS] = float("-inf")  # min_len 1
                if len(prefix) == 5:
                    prefix.append(EOS)  # max_len reached: EOS forced
                    break
                prefix.append(int(lp.argmax()))
                if prefix[-1] == EOS:
                    break
        self.assertEqual(hyp, prefix)


class OutputsHashTest(unittest.TestCase):
    def test_hash_is_bench_decodes(self):
        # the value bench/decode/main.go's hash gives for the same outputs
        # (shorter source first, ids as 4 little-endian bytes, ff ff ff ff after each)
        self.assertEqual(outputs_fnv64([[1, 2, 3], [1]], [[5, 6, 2], [7, 2]]), "c7d8900b535fe119")


if __name__ == "__main__":
    unittest.main()

"""The reference encoder-decoder Transformer shared by the two benchmark scripts.

Architecture (the one strata implements, fairseq's `transformer` layout):
  * shared token embedding for source, target and output projection,
    scaled by sqrt(d_model), N(0, d^-0.5) init with a zero pad row;
  * sinusoidal positions in fairseq's layout (all sines, then all cosines;
    position numbers start at pad+1 and count non-pad tokens only);
  * N encoder and N decoder layers with ReLU feed-forward blocks, residual
    dropout, attention-probability dropout and activation dropout;
  * post-norm (LayerNorm after each residual add) or pre-norm (LayerNorm
    before each block plus a final LayerNorm on the encoder and decoder
    output stacks).

Tensors are batch-first: (batch, time, channels). Attention is written out
with matmul/softmax rather than nn.MultiheadAttention because incremental
decoding needs to cache projected keys and values per layer, which
nn.MultiheadAttention cannot do.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# fairseq dictionary layout: <s>=0, <pad>=1, </s>=2, <unk>=3.
BOS, PAD, EOS, UNK = 0, 1, 2, 3
FIRST_WORD = 4  # random ids are drawn from [FIRST_WORD, vocab)


def sinusoidal_table(num_positions, dim, padding_idx):
    """fairseq's table: row p holds sin(p*f_0..f_{h-1}) then cos(p*f_0..f_{h-1})
    with f_i = 10000^(-i/(h-1)), h = dim/2; the padding row is all zeros."""
    half = dim // 2
    step = math.log(10000.0) / (half - 1)
    freqs = torch.exp(torch.arange(half, dtype=torch.float) * -step)
    angles = torch.arange(num_positions, dtype=torch.float).unsqueeze(1) * freqs.unsqueeze(0)
    table = torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
    if dim % 2 == 1:
        table = torch.cat([table, torch.zeros(num_positions, 1)], dim=1)
    table[padding_idx] = 0
    return table


def make_positions(tokens):
    """Position numbers pad+1, pad+2, ... for non-pad tokens, pad for pads
    (so left-padded sources still start at pad+1)."""
    mask = tokens.ne(PAD).long()
    return torch.cumsum(mask, dim=1) * mask + PAD


def future_mask(length, device=None):
    """Additive (length, length) mask hiding positions to the right."""
    return torch.triu(torch.full((length, length), float("-inf"), device=device), diagonal=1)


class Attention(nn.Module):
    """Multi-head scaled dot-product attention with separate q/k/v projections.

    Keys and values are projected by project_kv so callers can cache them
    (decoder self-attention) or compute them once (encoder outputs)."""

    def __init__(self, dim, heads, dropout):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scaling = self.head_dim ** -0.5
        self.dropout = dropout
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.out_proj = nn.Linear(dim, dim)

    def split_heads(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.head_dim).transpose(1, 2)

    def project_kv(self, x):
        return self.split_heads(self.k_proj(x)), self.split_heads(self.v_proj(x))

    def forward(self, query, k, v, key_padding_mask=None, attn_mask=None):
        """query (B,Tq,C); k, v (B,H,Tk,Dh); key_padding_mask (B,Tk) bool, True
        at pads; attn_mask (Tq,Tk) additive."""
        q = self.split_heads(self.q_proj(query) * self.scaling)
        scores = torch.matmul(q, k.transpose(-1, -2))
        if attn_mask is not None:
            scores = scores + attn_mask
        if key_padding_mask is not None:
            scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        probs = F.softmax(scores, dim=-1)
        probs = F.dropout(probs, p=self.dropout, training=self.training)
        out = torch.matmul(probs, v)
        b, _, t, _ = out.shape
        return self.out_proj(out.transpose(1, 2).reshape(b, t, -1))


class FeedForward(nn.Module):
    def __init__(self, dim, ffn_dim, activation_dropout):
        super().__init__()
        self.fc1 = nn.Linear(dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, dim)
        self.activation_dropout = activation_dropout

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = F.dropout(h, p=self.activation_dropout, training=self.training)
        return self.fc2(h)


class Sublayer(nn.Module):
    """Residual wrapper: post-norm LN(x + drop(f(x))) or pre-norm x + drop(f(LN(x)))."""

    def __init__(self, dim, dropout, pre_norm):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.dropout = dropout
        self.pre_norm = pre_norm

    def forward(self, x, fn):
        h = fn(self.norm(x) if self.pre_norm else x)
        x = x + F.dropout(h, p=self.dropout, training=self.training)
        return x if self.pre_norm else self.norm(x)


class EncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.self_attn = Attention(cfg.dim, cfg.heads, cfg.attention_dropout)
        self.ffn = FeedForward(cfg.dim, cfg.ffn_dim, cfg.activation_dropout)
        self.attn_block = Sublayer(cfg.dim, cfg.dropout, cfg.pre_norm)
        self.ffn_block = Sublayer(cfg.dim, cfg.dropout, cfg.pre_norm)

    def forward(self, x, pad_mask):
        def attend(h):
            k, v = self.self_attn.project_kv(h)
            return self.self_attn(h, k, v, key_padding_mask=pad_mask)

        x = self.attn_block(x, attend)
        return self.ffn_block(x, self.ffn)


class DecoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.self_attn = Attention(cfg.dim, cfg.heads, cfg.attention_dropout)
        self.encoder_attn = Attention(cfg.dim, cfg.heads, cfg.attention_dropout)
        self.ffn = FeedForward(cfg.dim, cfg.ffn_dim, cfg.activation_dropout)
        self.self_block = Sublayer(cfg.dim, cfg.dropout, cfg.pre_norm)
        self.cross_block = Sublayer(cfg.dim, cfg.dropout, cfg.pre_norm)
        self.ffn_block = Sublayer(cfg.dim, cfg.dropout, cfg.pre_norm)

    def forward(self, x, enc_kv, enc_pad_mask, self_mask=None, cache=None):
        """enc_kv: this layer's (k, v) of the encoder output. cache: dict
        holding this layer's self-attention keys/values of earlier steps;
        it is extended in place (incremental decoding, x is one step)."""

        def self_attend(h):
            k, v = self.self_attn.project_kv(h)
            if cache is not None:
                if "k" in cache:
                    k = torch.cat([cache["k"], k], dim=2)
                    v = torch.cat([cache["v"], v], dim=2)
                cache["k"], cache["v"] = k, v
            return self.self_attn(h, k, v, attn_mask=self_mask)

        def cross_attend(h):
            return self.encoder_attn(h, enc_kv[0], enc_kv[1], key_padding_mask=enc_pad_mask)

        x = self.self_block(x, self_attend)
        x = self.cross_block(x, cross_attend)
        return self.ffn_block(x, self.ffn)


class Config:
    def __init__(self, vocab=8000, dim=256, ffn_dim=1024, heads=4, layers=6,
                 dropout=0.1, attention_dropout=0.0, activation_dropout=0.0,
                 pre_norm=False, max_positions=1024):
        self.vocab = vocab
        self.dim = dim
        self.ffn_dim = ffn_dim
        self.heads = heads
        self.layers = layers
        self.dropout = dropout
        self.attention_dropout = attention_dropout
        self.activation_dropout = activation_dropout
        self.pre_norm = pre_norm
        self.max_positions = max_positions

    def as_dict(self):
        return dict(vars(self))


class Transformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab, cfg.dim, padding_idx=PAD)
        self.embed_scale = math.sqrt(cfg.dim)
        self.register_buffer(
            "pos_table", sinusoidal_table(cfg.max_positions + PAD + 1, cfg.dim, PAD), persistent=False)
        self.encoder_layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.layers))
        # Pre-norm stacks end with a LayerNorm; post-norm ones already do.
        self.encoder_norm = nn.LayerNorm(cfg.dim) if cfg.pre_norm else None
        self.decoder_norm = nn.LayerNorm(cfg.dim) if cfg.pre_norm else None
        self.reset_parameters()

    def reset_parameters(self):
        # fairseq's initialisation: Xavier-uniform linear weights (q/k/v with
        # gain 1/sqrt(2)), zero biases, N(0, d^-0.5) embeddings, zero pad row.
        for module in self.modules():
            if isinstance(module, nn.Linear):
                nn.init.xavier_uniform_(module.weight)
                nn.init.zeros_(module.bias)
            if isinstance(module, Attention):
                for proj in (module.q_proj, module.k_proj, module.v_proj):
                    nn.init.xavier_uniform_(proj.weight, gain=1 / math.sqrt(2))
        nn.init.normal_(self.embed.weight, mean=0.0, std=self.cfg.dim ** -0.5)
        with torch.no_grad():
            self.embed.weight[PAD].zero_()

    def embed_tokens(self, tokens, positions):
        x = self.embed_scale * self.embed(tokens) + self.pos_table[positions]
        return F.dropout(x, p=self.cfg.dropout, training=self.training)

    def encode(self, src_tokens):
        """Returns encoder output (B,S,C) and the source pad mask (B,S)."""
        pad_mask = src_tokens.eq(PAD)
        x = self.embed_tokens(src_tokens, make_positions(src_tokens))
        mask = pad_mask if pad_mask.any() else None
        for layer in self.encoder_layers:
            x = layer(x, mask)
        if self.encoder_norm is not None:
            x = self.encoder_norm(x)
        return x, mask

    def encoder_kv(self, enc_out):
        """Each decoder layer's cross-attention keys/values, computed once."""
        return [layer.encoder_attn.project_kv(enc_out) for layer in self.decoder_layers]

    def output_logits(self, x):
        if self.decoder_norm is not None:
            x = self.decoder_norm(x)
        return F.linear(x, self.embed.weight)  # tied output projection

    def forward(self, src_tokens, prev_output_tokens):
        """Teacher-forced logits (B,T,V) for training."""
        enc_out, enc_mask = self.encode(src_tokens)
        enc_kv = self.encoder_kv(enc_out)
        x = self.embed_tokens(prev_output_tokens, make_positions(prev_output_tokens))
        mask = future_mask(x.size(1), x.device)
        for layer, kv in zip(self.decoder_layers, enc_kv):
            x = layer(x, kv, enc_mask, self_mask=mask)
        return self.output_logits(x)

    def decode_step(self, last_tokens, step, enc_kv, enc_mask, caches):
        """Log-probabilities (N,V) of the next token given the token at
        position `step` of each (unpadded) prefix; caches are per layer."""
        positions = torch.full_like(last_tokens, step + PAD + 1).unsqueeze(1)
        x = self.embed_tokens(last_tokens.unsqueeze(1), positions)
        for layer, kv, cache in zip(self.decoder_layers, enc_kv, caches):
            x = layer(x, kv, enc_mask, cache=cache)
        return F.log_softmax(self.output_logits(x[:, 0, :]).float(), dim=-1)

"""A compact pre-LN encoder-decoder transformer with one shared embedding matrix (encoder input,
decoder input, output projection) and an explicit key/value cache, written so the decoder step
exports to ONNX exactly as the model-folder contract says."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZES = {
    # name: dModel, heads, encoderLayers, decoderLayers, ffn
    "tiny": dict(d_model=64, heads=2, enc_layers=1, dec_layers=1, ffn=128),
    "small": dict(d_model=192, heads=4, enc_layers=3, dec_layers=2, ffn=768),
    "base": dict(d_model=256, heads=4, enc_layers=3, dec_layers=3, ffn=768),
}
MAX_POS = 1024


def sinusoid(n, d):
    pe = torch.zeros(n, d)
    pos = torch.arange(n, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe


class FFN(nn.Module):
    def __init__(self, d, f, dropout):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.w1 = nn.Linear(d, f)
        self.w2 = nn.Linear(f, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return x + self.drop(self.w2(self.drop(F.gelu(self.w1(self.ln(x))))))


def attend(q, k, v, mask, dh):
    """q [B,H,Tq,Dh], k/v [B,H,Tk,Dh], mask additive broadcastable to [B,H,Tq,Tk] or None."""
    s = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(dh))
    if mask is not None:
        s = s + mask
    return torch.matmul(torch.softmax(s, dim=-1), v)


class SelfAttn(nn.Module):
    def __init__(self, d, h, dropout):
        super().__init__()
        self.h, self.dh = h, d // h
        self.ln = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.drop = nn.Dropout(dropout)

    def split(self, x):  # [B,T,d] -> [B,H,T,Dh]
        return x.reshape(x.shape[0], x.shape[1], self.h, self.dh).transpose(1, 2)

    def merge(self, x):  # [B,H,T,Dh] -> [B,T,d]
        x = x.transpose(1, 2)
        return x.reshape(x.shape[0], x.shape[1], self.h * self.dh)

    def forward(self, x, mask, past_k=None, past_v=None):
        q, k, v = self.qkv(self.ln(x)).chunk(3, dim=-1)
        q, k, v = self.split(q), self.split(k), self.split(v)
        if past_k is not None:
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        y = attend(q, k, v, mask, self.dh)
        return x + self.drop(self.o(self.merge(y))), k, v


class CrossAttn(nn.Module):
    def __init__(self, d, h, dropout):
        super().__init__()
        self.h, self.dh = h, d // h
        self.ln = nn.LayerNorm(d)
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)
        self.drop = nn.Dropout(dropout)

    def memory_kv(self, mem, mem_v=None):  # [B,S,d] -> k, v [B,H,S,Dh]
        if mem_v is None:
            k, v = self.kv(mem).chunk(2, dim=-1)
        else:  # keys and values from different memories (copy features)
            d = self.h * self.dh
            k = F.linear(mem, self.kv.weight[:d], self.kv.bias[:d])
            v = F.linear(mem_v, self.kv.weight[d:], self.kv.bias[d:])
        sp = lambda t: t.reshape(t.shape[0], t.shape[1], self.h, self.dh).transpose(1, 2)
        return sp(k), sp(v)

    def forward(self, x, k, v, mask):
        q = self.q(self.ln(x))
        q = q.reshape(q.shape[0], q.shape[1], self.h, self.dh).transpose(1, 2)
        y = attend(q, k, v, mask, self.dh).transpose(1, 2)
        y = y.reshape(y.shape[0], y.shape[1], self.h * self.dh)
        return x + self.drop(self.o(y))


class EncLayer(nn.Module):
    def __init__(self, d, h, f, dropout):
        super().__init__()
        self.att = SelfAttn(d, h, dropout)
        self.ffn = FFN(d, f, dropout)

    def forward(self, x, mask):
        x, _, _ = self.att(x, mask)
        return self.ffn(x)


class DecLayer(nn.Module):
    def __init__(self, d, h, f, dropout):
        super().__init__()
        self.att = SelfAttn(d, h, dropout)
        self.cross = CrossAttn(d, h, dropout)
        self.ffn = FFN(d, f, dropout)


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d_model, heads, enc_layers, dec_layers, ffn, dropout=0.1, copy_features=False, word_vectors=0):
        super().__init__()
        # word vectors (issue 20, item 4): a frozen table of pre-trained vectors (GloVe 100d) for the source pieces
        # that are whole words, projected into the encoder input (the projection starts at zero: a model continued
        # from one without them begins as that model). The table is a buffer, part of the exported encoder graph.
        self.word_vectors = word_vectors
        if word_vectors:
            self.register_buffer("wv_table", torch.zeros(vocab, word_vectors))
            self.wv = nn.Linear(word_vectors, d_model)
            nn.init.zeros_(self.wv.weight)
            nn.init.zeros_(self.wv.bias)
        # copy features: cross-attention keys also see the PREVIOUS source piece's embedding and values also carry
        # the piece's own embedding, so "attend to the position after the piece just copied and emit its piece"
        # is a direct path (all inside the encoder graph; the ONNX interface is unchanged).
        self.copy_features = copy_features
        if copy_features:
            self.copy_prev = nn.Linear(d_model, d_model)
        self.V, self.d, self.h, self.dh = vocab, d_model, heads, d_model // heads
        self.emb = nn.Embedding(vocab, d_model)
        nn.init.normal_(self.emb.weight, std=d_model ** -0.5)
        self.register_buffer("pe", sinusoid(MAX_POS, d_model), persistent=False)
        self.scale = math.sqrt(d_model)
        self.drop = nn.Dropout(dropout)
        self.enc = nn.ModuleList([EncLayer(d_model, heads, ffn, dropout) for _ in range(enc_layers)])
        self.enc_ln = nn.LayerNorm(d_model)
        self.dec = nn.ModuleList([DecLayer(d_model, heads, ffn, dropout) for _ in range(dec_layers)])
        self.dec_ln = nn.LayerNorm(d_model)

    # ---- encoder ----
    def encode(self, src, src_pad=None):
        """src [B,S] -> memory [B,S,d]; src_pad bool [B,S] True at padding."""
        x = self.emb(src) * self.scale + self.pe[: src.shape[1]].unsqueeze(0)
        if self.word_vectors:
            x = x + self.wv(self.wv_table[src])
        x = self.drop(x)
        mask = None
        if src_pad is not None:
            mask = (src_pad.float() * -1e9).unsqueeze(1).unsqueeze(1)
        for layer in self.enc:
            x = layer(x, mask)
        return self.enc_ln(x)

    def cross_kv(self, mem, src):
        """-> cross_k, cross_v [L,B,H,S,Dh]"""
        mem_v = None
        if self.copy_features:
            e = self.emb(src) * self.scale
            prev = F.pad(e[:, :-1], (0, 0, 1, 0))
            mem, mem_v = mem + self.copy_prev(prev), mem + e
        ks, vs = [], []
        for layer in self.dec:
            k, v = layer.cross.memory_kv(mem, mem_v)
            ks.append(k)
            vs.append(v)
        return torch.stack(ks), torch.stack(vs)

    def logits(self, y):
        return torch.matmul(self.dec_ln(y), self.emb.weight.t())

    # ---- full (teacher-forced) decoder ----
    def forward(self, src, src_pad, tgt_in):
        mem = self.encode(src, src_pad)
        ck, cv = self.cross_kv(mem, src)
        T = tgt_in.shape[1]
        x = self.drop(self.emb(tgt_in) * self.scale + self.pe[:T].unsqueeze(0))
        causal = torch.triu(torch.full((T, T), -1e9, device=tgt_in.device), diagonal=1)
        xmask = (src_pad.float() * -1e9).unsqueeze(1).unsqueeze(1)
        for i, layer in enumerate(self.dec):
            x, _, _ = layer.att(x, causal)
            x = layer.cross(x, ck[i], cv[i], xmask)
            x = layer.ffn(x)
        return self.logits(x)

    # ---- one decoder step with a KV cache (the exported graph) ----
    def step(self, tokens, position, cross_k, cross_v, past_k, past_v, xmask=None):
        """tokens [B,1], position [1], cross_* [L,B,H,S,Dh], past_* [L,B,H,T,Dh]
        -> logprobs [B,V], present_k/v [L,B,H,T+1,Dh]"""
        x = self.emb(tokens) * self.scale + self.pe[position].unsqueeze(0)
        pk, pv = [], []
        for i, layer in enumerate(self.dec):
            x, k, v = layer.att(x, None, past_k[i], past_v[i])
            pk.append(k)
            pv.append(v)
            x = layer.cross(x, cross_k[i], cross_v[i], xmask)
            x = layer.ffn(x)
        logp = torch.log_softmax(self.logits(x)[:, 0, :], dim=-1)
        return logp, torch.stack(pk), torch.stack(pv)

    def empty_cache(self, B):
        z = torch.zeros(len(self.dec), B, self.h, 0, self.dh)
        return z, z.clone()


class EncoderExport(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, src):
        return self.m.cross_kv(self.m.encode(src), src)


class DecoderExport(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, tokens, position, cross_k, cross_v, past_k, past_v):
        return self.m.step(tokens, position, cross_k, cross_v, past_k, past_v)

"""A transformers Llama decoder whose static KV cache is registered as buffers of the attention
modules (`model.model.layers.N.self_attn.k_cache` / `v_cache`), the way backends export decoders.
transformers' own export wrapper keeps the cache in tensors that torch.export lifts as constants;
here the cache's update writes the attention modules' buffers instead, so the cache writes are
buffer writes. The buffers are looked up on the module at call time: non-strict export swaps a
module's buffers for traced ones, and a reference kept elsewhere would be captured as a constant."""
import inspect

import torch
import torch.nn as nn
import transformers
from transformers.cache_utils import StaticCache

VOCAB = 90
MAX_LEN = 16


def _config(layers=2):
    cfg = transformers.LlamaConfig(vocab_size=VOCAB, hidden_size=16, intermediate_size=32, num_hidden_layers=layers,
                                   num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=64,
                                   pad_token_id=0)
    cfg.use_cache = True
    return cfg


class BufferStaticCache(StaticCache):
    """transformers' StaticCache (mask sizes, lengths) whose storage is the modules' buffers."""

    def __init__(self, config, attention_modules, max_cache_len):
        super().__init__(config=config, max_cache_len=max_cache_len)
        self.attention_modules = attention_modules

    def update(self, key_states, value_states, layer_idx, cache_kwargs=None):
        attn = self.attention_modules[layer_idx]
        position = (cache_kwargs or {}).get("cache_position")
        if position is None:
            position = torch.arange(key_states.shape[2])
        attn.k_cache.index_copy_(2, position, key_states)
        attn.v_cache.index_copy_(2, position, value_states)
        return attn.k_cache, attn.v_cache


class StaticCacheDecoder(nn.Module):
    def __init__(self, layers=2):
        super().__init__()
        cfg = _config(layers)
        self.model = transformers.LlamaForCausalLM(cfg).eval()
        head_dim = cfg.hidden_size // cfg.num_attention_heads
        attention = [layer.self_attn for layer in self.model.model.layers]
        for attn in attention:
            attn.register_buffer("k_cache", torch.zeros(1, cfg.num_key_value_heads, MAX_LEN, head_dim))
            attn.register_buffer("v_cache", torch.zeros(1, cfg.num_key_value_heads, MAX_LEN, head_dim))
        self.cache = BufferStaticCache(cfg, attention, MAX_LEN)
        example = torch.zeros(1, cfg.num_key_value_heads, 1, head_dim)
        for layer in self.cache.layers:  # sizes for the mask helpers; their storage is never used
            init = layer.lazy_initialization
            init(example, example) if len(inspect.signature(init).parameters) >= 2 else init(example)

    def forward(self, input_ids, cache_position):
        out = self.model(input_ids=input_ids, cache_position=cache_position, past_key_values=self.cache,
                         use_cache=True)
        return out.logits


def make_decoder(layers=2):
    from common import low_entropy_
    return low_entropy_(StaticCacheDecoder(layers)).eval()


def decode_steps(n=3):
    return [((torch.tensor([[(i * 13 + 5) % VOCAB]]), torch.tensor([i])), {}) for i in range(n)]

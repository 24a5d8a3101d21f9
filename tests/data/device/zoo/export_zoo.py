"""A clean zoo for the quiet defaults (docs/quiet-defaults.md), exported with PyTorch 2.11 on the
device: torchvision, timm and transformers models in eval and train mode, TRAINING and ATEN, at
tiny width with low-entropy weights, and programs whose state is shared (tied weights, one tensor under two
names, a submodule under two names, several programs in one archive).

    python3 export_zoo.py OUT_DIR [FULLSIZE_DIR]

Every file is judged by PyTorch (load, validate, two steps against eager) into labels.json.
`expect` lists the rules a file should trigger: empty for clean programs. With FULLSIZE_DIR,
full-size torchvision models are also exported and only their program JSON is kept there."""
import os
import sys
import zipfile

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import Labels, attempt, export_pair, judge, log, low_entropy_, save, save_many, export  # noqa: E402

OUT = sys.argv[1]
FULL = sys.argv[2] if len(sys.argv) > 2 else None
labels = Labels(OUT)
torch.manual_seed(0)


def images(n=2, size=32):
    return [((torch.randn(n, 3, size, size),), {}) for _ in range(2)]


def vision(name, make, modes=("eval", "train"), size=32):
    for mode in modes:
        def case(mode=mode):
            torch.manual_seed(0)
            m = low_entropy_(make())
            m.train(mode == "train")
            export_pair(labels, OUT, f"{name}_{mode}", m, images(size=size), extra={"model": name, "mode": mode})
        attempt(f"{name}_{mode}", case, labels)


# ---------------------------------------------------------------- torchvision and timm
import torchvision  # noqa: E402


def tiny_resnet():
    import timm.models.resnet as tr
    return tr.ResNet(tr.BasicBlock, [1, 1, 1, 1], channels=(8, 16, 32, 64), stem_width=8, num_classes=10)


def tiny_mobilenet_v3():
    return torchvision.models.mobilenet_v3_small(width_mult=0.25, num_classes=10, dropout=0.0)


def tiny_efficientnet():
    from torchvision.models.efficientnet import EfficientNet, _efficientnet_conf
    setting, last = _efficientnet_conf("efficientnet_b0", width_mult=0.25, depth_mult=0.25)
    return EfficientNet(setting, dropout=0.0, stochastic_depth_prob=0.0, last_channel=last, num_classes=10)


def tiny_vit():
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=16,
                             mlp_dim=32, num_classes=10)


def tiny_timm_vit():
    import timm
    return timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32, patch_size=8, embed_dim=16,
                             depth=2, num_heads=2, num_classes=10)


def tiny_timm_convnext():
    import timm
    return timm.create_model("convnext_atto", pretrained=False, dims=(8, 16, 24, 32), depths=(1, 1, 1, 1),
                             num_classes=10)


vision("timm_resnet", tiny_resnet)
vision("tv_mobilenet_v3", tiny_mobilenet_v3)
vision("tv_efficientnet", tiny_efficientnet)
vision("tv_vit", tiny_vit)
vision("timm_vit", tiny_timm_vit, modes=("eval",))
vision("timm_convnext", tiny_timm_convnext, modes=("eval",))

# ---------------------------------------------------------------- transformers
import transformers  # noqa: E402


def tokens(vocab=100, n=6):
    return [((torch.tensor([[(i * 7 + j * 3) % vocab for j in range(n)]]),), {}) for i in range(2)]


class LogitsOnly(nn.Module):
    """Returns the tensor a caller uses; transformers' output dataclasses carry optional fields.
    Dropout is 0 in every config, so train-mode programs and eager agree step for step."""

    def __init__(self, model, field):
        super().__init__()
        self.model = model
        self.field = field

    def forward(self, input_ids):
        return getattr(self.model(input_ids=input_ids, use_cache=False), self.field)


def bert():
    cfg = transformers.BertConfig(vocab_size=100, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                                  intermediate_size=32, max_position_embeddings=64,
                                  hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    return LogitsOnly(transformers.BertModel(cfg), "last_hidden_state")


def gpt2():
    cfg = transformers.GPT2Config(vocab_size=100, n_embd=16, n_layer=2, n_head=2, n_positions=64,
                                  tie_word_embeddings=True, resid_pdrop=0.0, embd_pdrop=0.0,
                                  attn_pdrop=0.0)
    return LogitsOnly(transformers.GPT2LMHeadModel(cfg), "logits")


def t5_encoder():
    cfg = transformers.T5Config(vocab_size=100, d_model=16, d_kv=8, d_ff=32, num_layers=2, num_heads=2, dropout_rate=0.0)
    return LogitsOnly(transformers.T5EncoderModel(cfg), "last_hidden_state")


for name, make in (("hf_bert", bert), ("hf_gpt2_tied", gpt2), ("hf_t5_encoder", t5_encoder)):
    for mode in ("eval", "train"):
        def case(name=name, make=make, mode=mode):
            torch.manual_seed(0)
            m = low_entropy_(make())
            m.train(mode == "train")
            export_pair(labels, OUT, f"{name}_{mode}", m, tokens(), extra={"model": name, "mode": mode})
        attempt(f"{name}_{mode}", case, labels)

# A Llama decoder with its static KV cache registered as buffers (the shape ExecuTorch and
# TensorRT users export): transformers' StaticCache layers point at buffers of the attention modules.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "seedbugs"))


def llama_case():
    from hf_static_decoder import make_decoder, decode_steps
    torch.manual_seed(0)
    m = make_decoder()
    export_pair(labels, OUT, "hf_llama_static_cache", m, decode_steps(), extra={"model": "hf_llama", "mode": "eval"})


attempt("hf_llama_static_cache", llama_case, labels)

# ---------------------------------------------------------------- shared state


class TiedHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, ids):
        return self.head(self.emb(ids))


class TwoNamesOneTensor(nn.Module):
    def __init__(self, write):
        super().__init__()
        t = torch.ones(4)
        self.register_buffer("scale", t)
        self.register_buffer("scale_alias", t)
        self.write = write

    def forward(self, x):
        if self.write:
            self.scale.add_(1)
        return x * self.scale + self.scale_alias


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        self.calls.add_(1)
        return self.lin(x)


class SharedSubmodule(nn.Module):
    def __init__(self, write):
        super().__init__()
        self.block = Counter() if write else nn.Linear(4, 4)
        self.reused = self.block

    def forward(self, x):
        return self.reused(self.block(x))


ids = [((torch.tensor([[1, 2, 3]]),), {}) for _ in range(2)]
vec = [((torch.randn(2, 4),), {}) for _ in range(2)]
for name, make, steps, expect, strict in (
        ("tied_head", TiedHead, ids, (), False),
        ("tied_head_strict", TiedHead, ids, (), True),
        ("two_names_one_tensor_read", lambda: TwoNamesOneTensor(False), vec, (), False),
        ("two_names_one_tensor_written", lambda: TwoNamesOneTensor(True), vec, ("aliased-state-written",), False),
        ("shared_submodule_read", lambda: SharedSubmodule(False), vec, (), False),
        ("shared_submodule_written", lambda: SharedSubmodule(True), vec, ("aliased-state-written",), False)):
    def case(name=name, make=make, steps=steps, expect=expect, strict=strict):
        torch.manual_seed(0)
        export_pair(labels, OUT, name, low_entropy_(make()), steps, expect=expect,
                    extra={"model": name, "shared_state": True}, strict=strict)
    attempt(name, case, labels)


class KVDecoder(nn.Module):
    """Prefill, decode and reset share one cache: three programs of one archive."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.register_buffer("cache", torch.zeros(1, 8, 4))

    def forward(self, x, pos):
        self.cache.index_copy_(1, pos, self.proj(x))
        return self.cache.sum(1)


class Reset(nn.Module):
    def __init__(self, dec):
        super().__init__()
        self.proj = dec.proj
        self.register_buffer("cache", dec.cache)

    def forward(self):
        self.cache.zero_()
        return self.cache.sum()


def multi_case():
    torch.manual_seed(0)
    dec = low_entropy_(KVDecoder()).eval()
    prefill = export(dec, (torch.randn(1, 4, 4), torch.arange(4)))
    decode = export(dec, (torch.randn(1, 1, 4), torch.tensor([4])))
    reset = export(Reset(dec), ())
    for suffix, programs in (("", {"prefill": prefill, "decode": decode, "reset": reset}),
                             (".aten", {"prefill": prefill.run_decompositions(), "decode": decode.run_decompositions(),
                                        "reset": reset.run_decompositions()})):
        path = os.path.join(OUT, f"multi_prefill_decode_reset{suffix}.pt2")
        save_many(programs, path)
        rec = {"case": "multi_prefill_decode_reset", "file": os.path.basename(path), "expect": [],
               "dialect": "ATEN" if suffix else "TRAINING", "shared_state": True}
        for prog in programs:
            rec[prog] = judge(path, program=prog)
        labels.add(rec)


attempt("multi_prefill_decode_reset", multi_case, labels)
labels.write()

# ---------------------------------------------------------------- full size, program JSON only
if FULL:
    os.makedirs(FULL, exist_ok=True)
    for name in ("resnet50", "mobilenet_v3_large", "efficientnet_b0", "vit_b_16"):
        def case(name=name):
            m = getattr(torchvision.models, name)(weights=None).eval()
            ep = export(m, (torch.randn(1, 3, 224, 224),))
            for suffix, prog in (("", ep), (".aten", ep.run_decompositions())):
                path = os.path.join(FULL, f"{name}{suffix}.pt2")
                save(prog, path)
                with zipfile.ZipFile(path) as z:
                    member = next(n for n in z.namelist() if n.endswith("models/model.json"))
                    with open(os.path.join(FULL, f"{name}{suffix}.json"), "wb") as f:
                        f.write(z.read(member))
                os.remove(path)
        attempt(f"fullsize_{name}", case)

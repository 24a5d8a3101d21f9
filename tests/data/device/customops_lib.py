"""Custom ops that write their arguments, shared by the export script and the device checks
(a program that calls them can only be loaded in a process that defines them).

Two ways of declaring them, as users do:
- torch.library.custom_op with mutates_args (a tuple of names, or "unknown");
- torch.library.Library.define with alias annotations: Tensor(a!) and Tensor(a!)[]."""
import torch
from torch import Tensor


@torch.library.custom_op("pt2lint_test::ema_update", mutates_args=("avg",))
def ema_update(avg: Tensor, x: Tensor, decay: float) -> None:
    avg.mul_(decay).add_(x.mean(0) * (1.0 - decay))


@ema_update.register_fake
def _(avg, x, decay):
    return None


@torch.library.custom_op("pt2lint_test::update_kv", mutates_args=("k_cache", "v_cache"))
def update_kv(k_cache: Tensor, v_cache: Tensor, k: Tensor, v: Tensor, pos: Tensor) -> None:
    k_cache.index_copy_(1, pos, k)
    v_cache.index_copy_(1, pos, v)


@update_kv.register_fake
def _(k_cache, v_cache, k, v, pos):
    return None


@torch.library.custom_op("pt2lint_test::accumulate_into", mutates_args=("x",))
def accumulate_into(x: Tensor, y: Tensor) -> Tensor:
    x.add_(y)
    return y * 2


@accumulate_into.register_fake
def _(x, y):
    return torch.empty_like(y)


@torch.library.custom_op("pt2lint_test::mystery", mutates_args="unknown")
def mystery(state: Tensor, x: Tensor) -> None:
    state.add_(x.sum(0))


@mystery.register_fake
def _(state, x):
    return None


LIB = torch.library.Library("pt2lint_lib", "DEF")
LIB.define("bump_(Tensor(a!) x, Scalar v) -> ()")
LIB.define("bump_list_(Tensor(a!)[] xs, Scalar v) -> ()")


def _bump(x, v):
    x.add_(v)


def _bump_list(xs, v):
    for t in xs:
        t.add_(v)


LIB.impl("bump_", _bump, "CPU")
LIB.impl("bump_list_", _bump_list, "CPU")
torch.library.register_fake("pt2lint_lib::bump_", lambda x, v: None, lib=LIB)
torch.library.register_fake("pt2lint_lib::bump_list_", lambda xs, v: None, lib=LIB)

OPS = [torch.ops.pt2lint_test.ema_update.default, torch.ops.pt2lint_test.update_kv.default,
       torch.ops.pt2lint_test.accumulate_into.default, torch.ops.pt2lint_test.mystery.default,
       torch.ops.pt2lint_lib.bump_.default, torch.ops.pt2lint_lib.bump_list_.default]


def schema_lines():
    """The schemas as `torch.ops.ns.op.default._schema` prints them: pt2lint's --op-schemas form."""
    return [str(op._schema) for op in OPS]

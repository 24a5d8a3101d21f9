"""Pieces of textproto programs that the dataflow golden generators (make_*_goldens.py) share:
dtype codes, one tensor_values entry, and one argument value."""

F32, I64 = 7, 5  # ScalarType codes of the IR (core/ir/program.proto)


def tv(name, dtype, *sizes):
    """A tensor_values entry: `name` of `dtype` with static `sizes`, on the CPU."""
    s = "".join(f" sizes {{ as_int: {n} }}" for n in sizes)
    return f'      tensor_values {{ key: "{name}" value {{ dtype: {dtype}{s} device {{ type: "cpu" }} }} }}\n'


def arg(v):
    """An argument: a bool, int or float literal, `op:NAME` an operator, `str:TEXT` a string,
    anything else the tensor of that name."""
    if isinstance(v, bool):
        return f"as_bool: {'true' if v else 'false'}"
    if isinstance(v, int):
        return f"as_int: {v}"
    if isinstance(v, float):
        return f"as_float: {v}"
    if v.startswith("op:"):
        return f'as_operator: "{v[3:]}"'
    if v.startswith("str:"):
        return f'as_string: "{v[4:]}"'
    return f'as_tensor {{ name: "{v}" }}'

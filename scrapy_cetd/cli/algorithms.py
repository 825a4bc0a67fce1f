"""``scrapy-cetd algorithms``: the registered algorithms with their options; marks the default."""

from __future__ import annotations

import argparse
import math
from typing import Any

from ..api import DEFAULT_ALGORITHM
from ..registry import algorithm_names, get_algorithm

__all__ = ["add_algorithms_command"]


def _algorithms_command(args: argparse.Namespace) -> int:
    for name in algorithm_names():
        spec = get_algorithm(name)
        limit = "" if math.isinf(spec.max_coefficient) else f", at most {spec.max_coefficient:g}"
        default = " (default)" if name == DEFAULT_ALGORITHM else ""
        print(f"{name}{default}: {spec.summary}")
        print(f"    paper: {spec.paper}")
        print(f"    --threshold-coefficient: default {spec.default_coefficient:g}{limit}")
        for param_name, param in spec.params.items():
            kind = "whole number" if param.integer else "number"
            print(f"    --param {param_name}=VALUE: {kind} in [{param.minimum:g}, {param.maximum:g}], "
                  f"default {param.default:g}. {param.doc}".rstrip())
    return 0



def add_algorithms_command(commands: Any) -> None:
    """Add the ``algorithms`` sub-command to the CLI's sub-parsers."""
    al = commands.add_parser(
        "algorithms", help="list the registered algorithms, their papers and options; marks the default"
    )
    al.set_defaults(handler=_algorithms_command)

"""``python -m tests.golden [--update]``: compare (or rewrite) the golden pages' expected files."""

from __future__ import annotations

import argparse
import sys

from . import check, golden_pages, update


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("--update", action="store_true", help="rewrite the expected files from the output now")
    args = parser.parse_args(argv)
    if args.update:
        changed = update()
        print(f"{len(changed)} golden files changed" + "".join(f"\n  {path}" for path in changed))
        return 0
    differing = 0
    for page in golden_pages():
        diffs = check(page)
        differing += bool(diffs)
        sys.stdout.writelines(diffs)
    print(f"{differing} golden pages differ", file=sys.stderr)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
